import { describe, expect, it } from 'vitest'
import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import { SCHEMA_DEPTH_LIMIT } from '../../schema/depth.js'
import { loadMcpToolset, mcpToolsetNames } from '../__fixtures__/mcp-toolsets.js'
import type { PtcToolView } from '../ptc-port.js'
import { renderTypeScriptSdk } from './render-typescript-sdk.js'

const tool = (name: string, parameters: JsonSchemaObject, output?: JsonSchemaNode): PtcToolView =>
  output === undefined ? { name, description: '', parameters } : { name, description: '', parameters, output }

/** Deterministic shuffle so the test is repeatable and still reorders every list. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items]
  let state = seed
  for (let index = copy.length - 1; index > 0; index--) {
    state = (state * 1103515245 + 12345) % 2147483648
    const other = state % (index + 1)
    ;[copy[index], copy[other]] = [copy[other] as T, copy[index] as T]
  }
  return copy
}

describe('renderTypeScriptSdk over the shared MCP tool lists', () => {
  for (const name of mcpToolsetNames()) {
    it(`renders ${name}`, () => {
      expect(renderTypeScriptSdk(loadMcpToolset(name))).toMatchSnapshot()
    })

    it(`renders ${name} byte-identically whatever the registration order`, () => {
      const tools = loadMcpToolset(name)
      const expected = renderTypeScriptSdk(tools)
      for (const seed of [1, 7, 42]) expect(renderTypeScriptSdk(shuffled(tools, seed))).toBe(expected)
      expect(renderTypeScriptSdk([...tools].reverse())).toBe(expected)
    })
  }

  it('drops unreachable $defs and writes each tool description once', () => {
    const sdk = renderTypeScriptSdk(loadMcpToolset('notion'))
    expect(sdk).not.toContain('$schema')
    const descriptions = loadMcpToolset('notion').map((view) => view.description.split('\n')[0] as string)
    for (const line of descriptions) expect(sdk.split(line).length - 1).toBeGreaterThanOrEqual(1)
    expect(sdk.match(/^type RichTextRequest =/gm)).toHaveLength(1)
  })
})

describe('renderTypeScriptSdk shapes', () => {
  it('renders unions, literals, records, tuples and nullable types', () => {
    const sdk = renderTypeScriptSdk([
      tool('shapes', {
        type: 'object',
        properties: {
          choice: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          either: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
          mode: { type: 'string', enum: ['fast', 'slow'] },
          tag: { const: 'v1' },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
          legacyPair: { type: 'array', items: [{ type: 'boolean' }], additionalItems: { type: 'string' } },
          maybe: { type: ['string', 'null'] },
          openApi: { type: 'number', nullable: true },
          anything: {},
        },
        required: ['choice'],
      }),
    ])
    expect(sdk).toMatchInlineSnapshot(`
      "declare class ToolCallError extends Error { toolName: string; code: string; message: string; callId: string }
      declare const tools: {
        shapes(args: {
          choice: string | number
          either?: boolean | null
          mode?: "fast" | "slow"
          tag?: "v1"
          labels?: Record<string, string>
          pair?: [string, number]
          legacyPair?: [boolean, ...string[]]
          maybe?: string | null
          openApi?: number | null
          anything?: unknown
        }): Promise<unknown>
      }
      "
    `)
  })

  it('names $ref targets after their $defs entry and hoists a shape shared by two tools once', () => {
    const point: JsonSchemaObject = {
      type: 'object',
      properties: { x: { type: 'number', description: 'Across' }, y: { type: 'number' } },
      required: ['x', 'y'],
    }
    const sdk = renderTypeScriptSdk([
      tool('move', { type: 'object', properties: { to: point }, required: ['to'] }),
      tool('draw', {
        type: 'object',
        properties: { at: { $ref: '#/$defs/anchor' }, from: point },
        $defs: { anchor: { type: 'object', properties: { id: { type: 'string' } } }, unused: { type: 'string' } },
      }),
    ])
    expect(sdk).toMatchInlineSnapshot(`
      "declare class ToolCallError extends Error { toolName: string; code: string; message: string; callId: string }
      type Anchor = { id?: string }
      type From = {
        /** Across */
        x: number
        y: number
      }
      declare const tools: {
        draw(args?: { at?: Anchor; from?: From }): Promise<unknown>
        move(args: { to: From }): Promise<unknown>
      }
      "
    `)
  })

  it('names a recursive $ref and refers to it from inside itself, never shadowing a global type', () => {
    const sdk = renderTypeScriptSdk([
      tool('tree', {
        type: 'object',
        properties: { root: { $ref: '#/$defs/branch' }, dom: { $ref: '#/$defs/node' } },
        $defs: {
          branch: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/branch' } } } },
          node: { type: 'object', properties: { tag: { type: 'string' } } },
        },
      }),
    ])
    expect(sdk).toContain('type Branch = { children?: Branch[] }')
    expect(sdk).toContain('tree(args?: { root?: Branch; dom?: Node2 }): Promise<unknown>')
    expect(sdk).toContain('type Node2 = { tag?: string }')
  })

  it('quotes exotic tool and property names and writes result types', () => {
    const sdk = renderTypeScriptSdk([
      tool(
        'get-sum',
        { type: 'object', properties: { 'first value': { type: 'number' } }, required: ['first value'] },
        { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      ),
      tool('ping', { type: 'object', properties: {} }),
    ])
    expect(sdk).toContain('"get-sum"(args: { "first value": number }): Promise<{ sum: number }>')
    expect(sdk).toContain('ping(): Promise<unknown>')
  })

  it('keeps depth 16 exact and widens depth 17 to JsonValue', () => {
    const nest = (levels: number): JsonSchemaObject =>
      levels === 1
        ? { type: 'object', properties: { leaf: { type: 'string' } }, required: ['leaf'] }
        : { type: 'object', properties: { next: nest(levels - 1) }, required: ['next'] }
    const exact = renderTypeScriptSdk([tool('deep', nest(SCHEMA_DEPTH_LIMIT))])
    expect(exact).toContain('leaf: string')
    expect(exact).not.toContain('JsonValue')
    const widened = renderTypeScriptSdk([tool('deep', nest(SCHEMA_DEPTH_LIMIT + 1))])
    expect(widened).not.toContain('leaf: string')
    expect(widened).toContain('next: JsonValue')
    expect(widened).toContain('type JsonValue =')
  })

  it('keeps comment terminators in descriptions from closing the comment', () => {
    const sdk = renderTypeScriptSdk([
      { name: 'odd', description: 'ends */ early {{name}}', parameters: { type: 'object' } },
    ])
    expect(sdk).toContain('/** ends *\\/ early {{name}} */')
  })
})
