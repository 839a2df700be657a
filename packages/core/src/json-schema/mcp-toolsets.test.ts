import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { compileSchema } from './compile.js'
import type { JsonValue } from './json-value.js'
import type { JsonSchemaNode, JsonSchemaObject } from './node.js'
import { resolveReference } from './resolve-reference.js'
import { SchemaCompileError } from './schema-compile-error.js'

// The shared test data sits beside the repository (`../shared`).
const TOOLSETS = fileURLToPath(new URL('../../../../../shared/mcp-toolsets', import.meta.url))

interface Tool {
  readonly name: string
  readonly inputSchema: JsonSchemaNode
  readonly outputSchema?: JsonSchemaNode
}

const FORMAT_SAMPLES: Record<string, string> = {
  uri: 'https://example.com/a',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  'date-time': '2026-01-31T10:00:00Z',
  date: '2026-01-31',
  email: 'someone@example.com',
}

/** A small value that satisfies `schema`: default, const or first enum value, else built from the type. */
function sample(schema: JsonSchemaNode, root: JsonSchemaNode, depth = 0): JsonValue {
  if (typeof schema === 'boolean' || depth > 12) return null
  if (schema.$ref !== undefined)
    return sample(resolveReference(root, schema.$ref, undefined, '').schema as JsonSchemaNode, root, depth + 1)
  if (schema.const !== undefined) return schema.const
  if (schema.enum !== undefined) return schema.enum[0] ?? null
  const branches = schema.anyOf ?? schema.oneOf
  if (branches?.[0] !== undefined) return sample(branches[0], root, depth + 1)
  if (schema.default !== undefined) return schema.default
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  const builders: Record<string, () => JsonValue> = {
    string: () => FORMAT_SAMPLES[schema.format ?? ''] ?? 'x'.repeat(Math.max(1, schema.minLength ?? 1)),
    number: () => schema.minimum ?? 1,
    integer: () => schema.minimum ?? 1,
    boolean: () => true,
    null: () => null,
    array: () => Array.from({ length: schema.minItems ?? 0 }, () => sample(itemSchema(schema), root, depth + 1)),
    object: () => sampleObject(schema, root, depth),
  }
  return (builders[type ?? 'object'] ?? (() => null))()
}

function itemSchema(schema: JsonSchemaObject): JsonSchemaNode {
  return Array.isArray(schema.items) ? true : ((schema.items as JsonSchemaNode | undefined) ?? true)
}

function sampleObject(schema: JsonSchemaObject, root: JsonSchemaNode, depth: number): JsonValue {
  const value: Record<string, JsonValue> = {}
  for (const key of schema.required ?? []) value[key] = sample(schema.properties?.[key] ?? true, root, depth + 1)
  return value
}

const tools = readdirSync(TOOLSETS)
  .filter((file) => file.endsWith('.json') && !file.startsWith('_'))
  .sort()
  .flatMap((file) => {
    const toolset = JSON.parse(readFileSync(join(TOOLSETS, file), 'utf8')) as { tools: Tool[] }
    return toolset.tools.flatMap((tool) => [
      { label: `${file} ${tool.name} input`, schema: tool.inputSchema },
      ...(tool.outputSchema === undefined ? [] : [{ label: `${file} ${tool.name} output`, schema: tool.outputSchema }]),
    ])
  })

describe('real MCP tool schemas', () => {
  it('has the dumped schemas to test', () => {
    expect(tools.length).toBeGreaterThan(150)
  })

  it.each(tools)('$label compiles leniently and accepts a generated sample', ({ schema }) => {
    const compiled = compileSchema(schema, { lenient: true })
    const value = sample(schema, schema)
    expect(compiled.validate(value)).toEqual({ valid: true })
  })

  it('compiles every schema in strict mode too, and says which keywords stop the ones that do not', () => {
    const refusals = new Map<string, number>()
    let strict = 0
    for (const { schema } of tools) {
      try {
        compileSchema(schema)
        strict++
      } catch (error) {
        if (!(error instanceof SchemaCompileError)) throw error
        refusals.set(error.keyword, (refusals.get(error.keyword) ?? 0) + 1)
      }
    }
    console.log(
      `strict compile: ${strict}/${tools.length}; refused by keyword: ${JSON.stringify(Object.fromEntries(refusals))}`,
    )
    expect(Object.fromEntries(refusals)).toEqual({})
  })
})
