import { describe, expect, it } from 'vitest'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { toGeminiTools } from './to-gemini-tools.js'

const schedule: ToolSchema = {
  name: 'schedule',
  description: 'Schedules',
  parameters: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      at: { type: 'string', format: 'date-time' },
      id: { type: 'string', format: 'uuid' },
      place: { $ref: '#/$defs/place' },
      note: { type: ['string', 'null'] },
      kind: { const: 'meeting' },
      count: { type: 'integer', exclusiveMinimum: 0, format: 'int32' },
      either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['at'],
    additionalProperties: false,
    $defs: { place: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  },
}

describe('toGeminiTools', () => {
  it('writes the OpenAPI subset: refs inlined, nullable, string enums, supported formats, Type enum names', () => {
    const { tools } = toGeminiTools([schedule])
    expect(tools[0]).toEqual({
      name: 'schedule',
      description: 'Schedules',
      parameters: {
        type: 'OBJECT',
        properties: {
          at: { type: 'STRING', format: 'date-time' },
          id: { type: 'STRING', description: '{format: "uuid"}' },
          place: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
          note: { type: 'STRING', nullable: true },
          kind: { type: 'STRING', enum: ['meeting'] },
          count: { type: 'INTEGER', description: '{exclusiveMinimum: 0}', format: 'int32' },
          either: { type: 'STRING', nullable: true },
        },
        required: ['at'],
      },
    })
  })

  it('leaves parameters out for a tool without arguments', () => {
    const { tools } = toGeminiTools([
      { name: 'now', description: 'Time', parameters: { type: 'object', properties: {} } },
    ])
    expect(tools).toEqual([{ name: 'now', description: 'Time' }])
  })

  it('sends one tool it cannot express as parametersJsonSchema, and the others as parameters', () => {
    const tree: ToolSchema = {
      name: 'tree',
      description: 'Walks a tree',
      parameters: {
        type: 'object',
        properties: { root: { $ref: '#/$defs/node' } },
        $defs: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
      },
    }
    const { tools, report } = toGeminiTools([tree, schedule])
    expect(tools.map((tool) => Object.keys(tool).at(-1))).toEqual(['parametersJsonSchema', 'parameters'])
    expect(tools[0]?.parametersJsonSchema).toEqual({
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    })
    expect(report.tools.map((tool) => tool.status)).toEqual(['degraded', 'changed'])
  })

  it('drops required names an object does not declare: Gemini requires them to be listed properties', () => {
    const { tools, report } = toGeminiTools([
      {
        name: 'odd',
        description: 'Requires an undeclared key',
        parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] },
      },
    ])
    expect(tools[0]?.parameters).toEqual({ type: 'OBJECT', properties: { a: { type: 'STRING' } }, required: ['a'] })
    expect(report.tools[0]?.changes).toEqual([
      { path: '', keyword: 'required', action: 'dropped', detail: 'not declared: b' },
    ])
  })
})
