import { describe, expect, it } from 'vitest'
import type { JsonSchemaNode } from '../json-schema/node.js'
import type { ToolSchema } from '../registry/tool-schema.js'
import { DSL_TOOL_SCHEMAS } from './__fixtures__/dsl-schemas.js'
import { mcpToolSchemas } from './__fixtures__/mcp-tool-schemas.js'
import { toAnthropicTools } from './anthropic/to-anthropic-tools.js'
import { toGeminiTools } from './gemini/to-gemini-tools.js'
import { toOpenAITools } from './openai/to-openai-tools.js'

const projections = {
  'openai strict': (schemas: readonly ToolSchema[]) => toOpenAITools(schemas, { strict: true }),
  'openai responses': (schemas: readonly ToolSchema[]) => toOpenAITools(schemas, { api: 'responses' }),
  'anthropic strict': (schemas: readonly ToolSchema[]) => toAnthropicTools(schemas, { strict: true }),
  'gemini parameters': (schemas: readonly ToolSchema[]) => toGeminiTools(schemas),
  'gemini json schema': (schemas: readonly ToolSchema[]) => toGeminiTools(schemas, { field: 'parametersJsonSchema' }),
}

/** The same schema with every object's keys in reverse order: what another author or library might build. */
function reversedKeys(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(reversedKeys)
  if (typeof node !== 'object' || node === null) return node
  const entries = Object.entries(node).reverse()
  return Object.fromEntries(
    entries.map(([key, value]) => [key, key === 'properties' ? reorderValues(value) : reversedKeys(value)]),
  )
}

/** Property order is meaning, so it stays; only each property's own schema is shuffled. */
function reorderValues(properties: unknown): unknown {
  return Object.fromEntries(
    Object.entries(properties as Record<string, JsonSchemaNode>).map(([key, value]) => [key, reversedKeys(value)]),
  )
}

describe.each(Object.entries(projections))('%s', (_, project) => {
  it('writes byte-identical output for the same tools, however their schemas were built', () => {
    const sets = [DSL_TOOL_SCHEMAS, ...mcpToolSchemas().values()]
    for (const schemas of sets) {
      const first = JSON.stringify(project(schemas))
      expect(JSON.stringify(project(schemas))).toBe(first)
      const rebuilt = schemas.map((schema) => ({
        ...schema,
        parameters: reversedKeys(schema.parameters),
      })) as ToolSchema[]
      expect(JSON.stringify(project(rebuilt).tools)).toBe(JSON.stringify(project(schemas).tools))
    }
  })

  it('projects the DSL fixtures to the reviewed bytes', () => {
    expect(JSON.stringify(project(DSL_TOOL_SCHEMAS), null, 1)).toMatchSnapshot()
  })
})
