import type { Tool } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, it } from 'vitest'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { toAnthropicTools } from './to-anthropic-tools.js'

const book: ToolSchema = {
  name: 'book',
  description: 'Books a room',
  parameters: {
    type: 'object',
    properties: {
      guests: { type: 'integer', minimum: 1, maximum: 8 },
      name: { type: 'string', minLength: 2 },
      nights: { type: 'array', items: { type: 'string', format: 'date' }, minItems: 2 },
    },
    required: ['guests'],
  },
}

const optionalHeavy = (index: number): ToolSchema => ({
  name: `tool_${index}`,
  description: 'Has many optional parameters',
  parameters: {
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: 10 }, (_, key) => [`p${key}`, { type: 'string' }])),
  },
})

describe('toAnthropicTools', () => {
  it('folds a root union into one object: input_schema must be type object without a top-level union', () => {
    const { tools, report } = toAnthropicTools([
      {
        name: 'find',
        description: 'Finds',
        parameters: {
          type: 'object',
          oneOf: [
            { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
            { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
          ],
        },
      },
    ])
    const sent: Tool[] = tools
    expect(sent[0]?.input_schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, email: { type: 'string' } },
    })
    expect(report.tools[0]?.changes).toContainEqual({
      path: '',
      keyword: 'anyOf',
      action: 'rewritten',
      detail: 'root union folded into one object; the union is still checked locally',
    })
  })

  it('folds a root intersection too, including branches behind $ref', () => {
    const { tools } = toAnthropicTools([
      {
        name: 'list',
        description: 'Lists',
        parameters: {
          type: 'object',
          allOf: [
            { $ref: '#/$defs/paging' },
            { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
          ],
          $defs: { paging: { type: 'object', properties: { cursor: { type: 'string' } } } },
        },
      },
    ])
    expect(tools[0]?.input_schema).toEqual({
      type: 'object',
      properties: { cursor: { type: 'string' }, query: { type: 'string' } },
      required: ['query'],
      $defs: { paging: { type: 'object', properties: { cursor: { type: 'string' } } } },
    })
  })

  it('in strict mode drops numeric and length constraints and minItems above 1, and closes objects', () => {
    const { tools, report } = toAnthropicTools([book], { strict: true })
    expect(tools[0]).toEqual({
      name: 'book',
      description: 'Books a room',
      strict: true,
      input_schema: {
        type: 'object',
        properties: {
          guests: { type: 'integer', description: '{minimum: 1, maximum: 8}' },
          name: { type: 'string', description: '{minLength: 2}' },
          nights: { type: 'array', description: '{minItems: 2}', items: { type: 'string', format: 'date' } },
        },
        required: ['guests'],
        additionalProperties: false,
      },
    })
    expect(report.tools[0]?.changes.map((change) => `${change.path} ${change.keyword} ${change.action}`)).toEqual([
      '/properties/guests minimum dropped',
      '/properties/guests maximum dropped',
      '/properties/name minLength dropped',
      '/properties/nights minItems dropped',
      ' additionalProperties added',
    ])
  })

  it('sends a tool non-strict once the request-wide optional-parameter budget is spent', () => {
    const { tools, report } = toAnthropicTools([optionalHeavy(1), optionalHeavy(2), optionalHeavy(3)], { strict: true })
    expect(tools.map((tool) => tool.strict)).toEqual([true, true, undefined])
    expect(report.tools[2]?.warnings).toEqual([
      '(root): request-wide strict limit reached: optionalParameters (strict)',
      'strict tool use off for this tool',
    ])
  })
})
