import type { ChatCompletionTool } from 'openai/resources/chat/completions'
import type { FunctionTool } from 'openai/resources/responses/responses'
import { describe, expect, it } from 'vitest'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { toOpenAITools } from './to-openai-tools.js'

const search: ToolSchema = {
  name: 'search',
  description: 'Searches',
  parameters: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1 },
      limit: { type: 'integer', minimum: 1, default: 10 },
      sort: { type: 'string', enum: ['asc', 'desc'] },
      note: { type: ['string', 'null'] },
      when: { type: 'string', format: 'date-time' },
      site: { type: 'string', format: 'uri' },
    },
    required: ['query'],
    additionalProperties: false,
  },
}

const record: ToolSchema = {
  name: 'tag',
  description: 'Tags',
  parameters: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } },
}

describe('toOpenAITools', () => {
  it('sends the schema as declared without strict mode, minus document metadata', () => {
    const { tools, report } = toOpenAITools([search])
    const sent: ChatCompletionTool[] = tools
    expect(sent[0]).toEqual({
      type: 'function',
      function: {
        name: 'search',
        description: 'Searches',
        parameters: { ...search.parameters, $schema: undefined },
        strict: false,
      },
    })
    expect(JSON.stringify(sent[0])).not.toContain('$schema')
    expect(report.tools[0]?.status).toBe('exact')
  })

  it('in strict mode requires every property, makes optional ones nullable and drops what strict refuses', () => {
    const { tools, report } = toOpenAITools([search], { strict: true })
    expect(tools[0]?.function.parameters).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: '{minLength: 1}' },
        limit: { type: ['integer', 'null'], minimum: 1 },
        sort: { type: ['string', 'null'], enum: ['asc', 'desc', null] },
        note: { type: ['string', 'null'] },
        when: { type: ['string', 'null'], format: 'date-time' },
        site: { type: ['string', 'null'], description: '{format: "uri"}' },
      },
      required: ['query', 'limit', 'sort', 'note', 'when', 'site'],
      additionalProperties: false,
    })
    expect(report.tools[0]).toMatchObject({ strict: true, nullsMeanAbsent: true, status: 'changed' })
    expect(report.tools[0]?.changes.filter((change) => change.action === 'dropped')).toEqual([
      { path: '/properties/query', keyword: 'minLength', action: 'dropped' },
      { path: '/properties/limit', keyword: 'default', action: 'dropped' },
      { path: '/properties/site', keyword: 'format', action: 'dropped' },
    ])
  })

  it('turns strict off for one tool that has no strict form, and keeps it on for the others', () => {
    const { tools, report } = toOpenAITools([record, search], { strict: true, api: 'responses' })
    const sent: FunctionTool[] = tools
    expect(sent.map((tool) => [tool.name, tool.strict])).toEqual([
      ['tag', false],
      ['search', true],
    ])
    expect(report.tools[0]).toMatchObject({ status: 'degraded', strict: false, nullsMeanAbsent: false })
    expect(report.tools[0]?.warnings).toEqual([
      '/properties/labels: an object open to other properties cannot be closed (strict)',
      'strict mode off for this tool',
    ])
  })

  it('can leave the constraints strict mode drops out of the descriptions', () => {
    const { tools } = toOpenAITools([search], { strict: true, describeDroppedConstraints: false })
    expect(tools[0]?.function.parameters.properties?.query).toEqual({ type: 'string' })
  })

  it('warns, request-wide, when more tools are sent than OpenAI accepts', () => {
    const many = Array.from({ length: 129 }, (_, index) => ({ ...record, name: `tag_${index}` }))
    expect(toOpenAITools(many).report.warnings).toEqual(['129 tools; the provider accepts at most 128 per request'])
    expect(toOpenAITools([record]).report.warnings).toEqual([])
  })

  it('leaves out only the tool whose schema breaks the projector, and says why', () => {
    const cyclic: Record<string, unknown> = { type: 'object' }
    cyclic.properties = { self: cyclic }
    const broken = { name: 'broken', description: 'An object graph, not a JSON document', parameters: cyclic }
    const { tools, report } = toOpenAITools([broken as ToolSchema, search], { strict: true })
    expect(tools.map((tool) => tool.function.name)).toEqual(['search'])
    expect(report.tools[0]).toMatchObject({ name: 'broken', status: 'omitted' })
    expect(report.names).toEqual({ search: 'search' })
  })

  it('keeps a property and a tool named __proto__ as ordinary names', () => {
    const properties = JSON.parse('{"__proto__":{"type":"string"}}')
    const odd: ToolSchema = {
      name: '__proto__',
      description: 'Odd',
      parameters: { type: 'object', properties, required: ['__proto__'] },
    }
    const { tools, report } = toOpenAITools([odd], { strict: true })
    expect(Object.keys(tools[0]?.function.parameters.properties ?? {})).toEqual(['__proto__'])
    expect(Object.keys(report.names)).toEqual(['__proto__'])
  })
})
