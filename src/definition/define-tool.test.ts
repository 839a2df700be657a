import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { JsonSchemaNode } from '../json-schema/node.js'
import { jsonSchema } from '../schema/json-schema-spec.js'
import { defineTool } from './define-tool.js'
import { isToolDefinitionError, ToolDefinitionError } from './tool-definition-error.js'

const base = {
  name: 'search',
  description: 'Search the index.',
  parameters: { query: { type: 'string', required: true } },
  execute: () => null,
} as const

/** Defines `base` with `changes` applied, bypassing the types so malformed definitions reach the runtime checks. */
function define(changes: Record<string, unknown>) {
  return defineTool({ ...base, ...changes } as never)
}

function failure(changes: Record<string, unknown>): ToolDefinitionError {
  try {
    define(changes)
  } catch (error) {
    if (error instanceof ToolDefinitionError) return error
    throw error
  }
  throw new Error('defineTool accepted the definition')
}

const parameter = (spec: Record<string, unknown>) => ({ parameters: { value: spec } })

describe('defineTool', () => {
  test('returns a deeply frozen definition with canonical schemas', () => {
    const execute = () => 'found'
    const render = () => [{ type: 'text' as const, text: 'x' }]
    const tool = defineTool({
      name: 'search',
      title: 'Search',
      description: 'Search the index.',
      parameters: { query: { type: 'string', required: true }, limit: { type: 'integer', minimum: 1 } },
      output: { schema: { type: 'string' }, render },
      annotations: { readOnlyHint: true },
      executionMode: 'parallel',
      timeoutMs: 5000,
      execute,
    })
    expect(tool).toEqual({
      name: 'search',
      title: 'Search',
      description: 'Search the index.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
        required: ['query'],
        additionalProperties: false,
      },
      output: { schema: { type: 'string' }, render },
      annotations: { readOnlyHint: true },
      executionMode: 'parallel',
      timeoutMs: 5000,
      execute,
    })
    for (const part of [tool, tool.parameters, tool.parameters.properties, tool.parameters.required, tool.output]) {
      expect(Object.isFrozen(part)).toBe(true)
    }
    expect(Object.isFrozen(tool.annotations)).toBe(true)
    expect(tool.execute).toBe(execute)
  })

  test('copies what it keeps: later changes to the author objects change nothing', () => {
    const annotations = { readOnlyHint: true }
    const raw = { type: 'object', properties: { q: { type: 'string' } } } as {
      type: 'object'
      properties: Record<string, JsonSchemaNode>
    }
    const tool = define({ parameters: jsonSchema(raw), annotations })
    annotations.readOnlyHint = false
    raw.properties = {}
    expect(tool.annotations).toEqual({ readOnlyHint: true })
    expect(tool.parameters).toEqual({ type: 'object', properties: { q: { type: 'string' } } })
  })

  test('accepts every MCP tool schema in the shared toolsets', () => {
    const folder = '/work/shared/mcp-toolsets'
    let count = 0
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.json') && !name.startsWith('_'))) {
      const toolset = JSON.parse(readFileSync(join(folder, file), 'utf8')) as {
        tools: { name: string; description?: string; inputSchema: JsonSchemaNode; outputSchema?: JsonSchemaNode }[]
      }
      for (const tool of toolset.tools) {
        const definition = defineTool({
          name: tool.name.slice(0, 64),
          description: tool.description || tool.name,
          parameters: jsonSchema(tool.inputSchema),
          ...(tool.outputSchema === undefined ? {} : { output: { schema: jsonSchema(tool.outputSchema) } }),
          execute: () => null,
        })
        expect(definition.parameters).toEqual(tool.inputSchema)
        count++
      }
    }
    expect(count).toBeGreaterThan(100)
  })

  const badDefinitions: readonly [string, Record<string, unknown>, string][] = [
    ['name with a space', { name: 'read file' }, 'name'],
    ['name too long', { name: 'x'.repeat(65) }, 'name'],
    ['empty description', { description: '  ' }, 'description'],
    ['missing execute', { execute: undefined }, 'execute'],
    ['unknown config key', { exeucte: () => null }, 'exeucte'],
    ['bad execution mode', { executionMode: 'serial' }, 'executionMode'],
    ['zero timeout', { timeoutMs: 0 }, 'timeoutMs'],
    ['infinite timeout', { timeoutMs: Number.POSITIVE_INFINITY }, 'timeoutMs'],
    ['unknown annotation', { annotations: { readOnly: true } }, 'annotations'],
    ['idempotent not a boolean', { idempotent: 'yes' }, 'idempotent'],
    ['fractional result budget', { maxResultBytes: 10.5 }, 'maxResultBytes'],
    ['output without schema', { output: { render: () => [] } }, 'output'],
    ['unknown kind', parameter({ type: 'strin' }), 'parameters.value'],
    ['missing kind', parameter({ description: 'x' }), 'parameters.value'],
    ['oneOf with a type', parameter({ type: 'string', oneOf: [{ type: 'string' }] }), 'parameters.value'],
    ['empty oneOf', parameter({ oneOf: [] }), 'parameters.value.oneOf'],
    ['unknown keyword', parameter({ type: 'string', minLenght: 2 }), 'parameters.value.minLenght'],
    ['keyword of another kind', parameter({ type: 'string', minimum: 2 }), 'parameters.value.minimum'],
    [
      'required inside items',
      parameter({ type: 'array', items: { type: 'string', required: true } }),
      'parameters.value.items.required',
    ],
    ['required not a boolean', parameter({ type: 'string', required: 'yes' }), 'parameters.value.required'],
    ['minLength above maxLength', parameter({ type: 'string', minLength: 5, maxLength: 2 }), 'parameters.value'],
    ['minimum above maximum', parameter({ type: 'number', minimum: 5, maximum: 2 }), 'parameters.value'],
    ['empty exclusive range', parameter({ type: 'number', exclusiveMinimum: 2, maximum: 2 }), 'parameters.value'],
    ['minItems above maxItems', parameter({ type: 'array', minItems: 3, maxItems: 1 }), 'parameters.value'],
    ['negative minLength', parameter({ type: 'string', minLength: -1 }), 'parameters.value.minLength'],
    ['multipleOf zero', parameter({ type: 'number', multipleOf: 0 }), 'parameters.value.multipleOf'],
    ['invalid pattern', parameter({ type: 'string', pattern: '([a-z]' }), 'parameters.value.pattern'],
    ['lookahead pattern', parameter({ type: 'string', pattern: '^(?=a)a+$' }), 'parameters.value.pattern'],
    ['unknown format', parameter({ type: 'string', format: 'date_time' }), 'parameters.value.format'],
    ['enum member of another kind', parameter({ type: 'string', enum: ['a', 1] }), 'parameters.value.enum'],
    ['empty enum', parameter({ type: 'string', enum: [] }), 'parameters.value.enum'],
    ['duplicate enum member', parameter({ type: 'integer', enum: [1, 1] }), 'parameters.value.enum'],
    [
      'enum member violating a constraint',
      parameter({ type: 'string', enum: ['ab', 'abcd'], minLength: 3 }),
      'parameters.value.enum[0]',
    ],
    ['const of another kind', parameter({ type: 'integer', const: 1.5 }), 'parameters.value.const'],
    ['const violating a constraint', parameter({ type: 'integer', const: 1, minimum: 2 }), 'parameters.value.const'],
    ['enum with const', parameter({ type: 'string', enum: ['a'], const: 'a' }), 'parameters.value'],
    ['default of another kind', parameter({ type: 'string', default: 3 }), 'parameters.value.default'],
    ['default outside the enum', parameter({ type: 'string', enum: ['a'], default: 'b' }), 'parameters.value.default'],
    ['default below the minimum', parameter({ type: 'integer', minimum: 1, default: 0 }), 'parameters.value.default'],
    ['null default without nullable', parameter({ type: 'string', default: null }), 'parameters.value.default'],
    ['nullable on json', parameter({ type: 'json', nullable: true }), 'parameters.value.nullable'],
    [
      'properties with additionalProperties',
      parameter({ type: 'object', properties: {}, additionalProperties: { type: 'string' } }),
      'parameters.value',
    ],
    [
      'bad nested property',
      parameter({
        type: 'object',
        properties: { inner: { type: 'array', items: { type: 'integer', maximum: 'ten' } } },
      }),
      'parameters.value.properties.inner.items.maximum',
    ],
    ['parameters not a record', { parameters: 'query' }, 'parameters'],
    ['raw parameters not object-rooted', { parameters: jsonSchema({ type: 'string' }) }, 'parameters'],
    [
      'raw parameters with a dangling $ref',
      { parameters: jsonSchema({ type: 'object', $ref: '#/$defs/none' }) },
      'parameters',
    ],
    ['bad output schema', { output: { schema: { type: 'list' } } }, 'output.schema'],
    [
      'required at the output root',
      { output: { schema: { type: 'string', required: true } } },
      'output.schema.required',
    ],
  ]

  test.each(badDefinitions)('refuses %s, naming the tool and the path', (_label, changes, path) => {
    const error = failure(changes)
    expect(error.toolName).toBe(typeof changes.name === 'string' ? changes.name : 'search')
    expect(error.path).toBe(path)
    expect(error.message).toContain(`Tool ${JSON.stringify(error.toolName)}: ${path}: `)
  })

  test('error messages say what is wrong', () => {
    const messages = badDefinitions.map(([label, changes]) => `${label}: ${failure(changes).message}`)
    expect(messages.join('\n')).toMatchSnapshot()
  })

  test('refuses a configuration that is not an object', () => {
    expect(() => defineTool(null as never)).toThrow(ToolDefinitionError)
  })

  test('definition errors are recognised by brand, not by class identity', () => {
    const error = failure({ name: '' })
    expect(isToolDefinitionError(error)).toBe(true)
    expect(isToolDefinitionError(Object.create(Object.getPrototypeOf(error)))).toBe(true)
    // A spread copy keeps neither the prototype nor the non-enumerable message, so it is no ToolDefinitionError.
    expect(isToolDefinitionError({ ...error })).toBe(false)
    expect(isToolDefinitionError(new Error(error.message))).toBe(false)
  })
})
