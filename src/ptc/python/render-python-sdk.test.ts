import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import { SCHEMA_DEPTH_LIMIT } from '../../schema/depth.js'
import { loadMcpToolset, mcpToolsetNames } from '../__fixtures__/mcp-toolsets.js'
import type { PtcToolView } from '../ptc-port.js'
import { findPython } from './find-python.js'
import { renderPythonSdk } from './render-python-sdk.js'

const tool = (name: string, parameters: JsonSchemaObject, output?: JsonSchemaNode, description = ''): PtcToolView =>
  output === undefined ? { name, description, parameters } : { name, description, parameters, output }

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

const interpreter = findPython()

/**
 * Runs `source` with the real interpreter (annotations are evaluated, so every name must exist and every
 * shape must be declared before use); returns the error text, or '' when it runs.
 */
function pythonSyntaxError(source: string): string {
  if (!('executable' in interpreter)) throw new Error(interpreter.problem)
  const check =
    'import sys\ntry:\n    exec(sys.stdin.read(), {})\nexcept Exception as error:\n    print(type(error).__name__, error)'
  return execFileSync(interpreter.executable, ['-I', '-S', '-c', check], { input: source, encoding: 'utf8' }).trim()
}

describe('renderPythonSdk over the shared MCP tool lists', () => {
  for (const name of mcpToolsetNames()) {
    it(`renders ${name}`, () => {
      expect(renderPythonSdk(loadMcpToolset(name))).toMatchSnapshot()
    })

    it(`renders ${name} byte-identically whatever the registration order`, () => {
      const tools = loadMcpToolset(name)
      const expected = renderPythonSdk(tools)
      for (const seed of [1, 7, 42]) expect(renderPythonSdk(shuffled(tools, seed))).toBe(expected)
      expect(renderPythonSdk([...tools].reverse())).toBe(expected)
    })

    it(`renders ${name} as Python that runs`, () => {
      expect(pythonSyntaxError(renderPythonSdk(loadMcpToolset(name)))).toBe('')
    })
  }

  it('writes each description once and each shared shape once', () => {
    const tools = loadMcpToolset('notion')
    const sdk = renderPythonSdk(tools)
    for (const view of tools) {
      const first = view.description.trim().split('\n')[0] as string
      expect(sdk.split(first).length - 1).toBeGreaterThanOrEqual(1)
    }
    expect(sdk.match(/^class RichTextRequest\(/gm)).toHaveLength(1)
    expect(sdk).not.toContain('$schema')
  })
})

describe('renderPythonSdk shapes', () => {
  it('renders unions, literals, dicts, tuples, nullable types and defaults', () => {
    const sdk = renderPythonSdk([
      tool('shapes', {
        type: 'object',
        properties: {
          choice: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          either: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
          mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' },
          tag: { const: 'v1' },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
          maybe: { type: ['string', 'null'] },
          openApi: { type: 'number', nullable: true },
          ratio: { enum: [0.5, 1] },
          anything: {},
          nested: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] },
        },
        required: ['choice'],
      }),
    ])
    expect(sdk).toMatchInlineSnapshot(`
      "from typing import Any, Literal, TypedDict
      class ToolCallError(Exception): tool_name: str; code: str; message: str; call_id: str
      class Nested(TypedDict):
          id: str  # (uuid)
      class tools:
          async def shapes(*,
              choice: str | int,
              either: bool | None = ...,
              mode: Literal["fast", "slow"] = "fast",
              tag: Literal["v1"] = ...,
              labels: dict[str, str] = ...,
              pair: tuple[str, float] = ...,
              maybe: str | None = ...,
              openApi: float | None = ...,
              ratio: Literal[1] | float = ...,
              anything: Any = ...,
              nested: Nested = ...,
          ) -> Any: ...
      "
    `)
    expect(pythonSyntaxError(sdk)).toBe('')
  })

  it('spells odd tool and key names so they still work', () => {
    const sdk = renderPythonSdk([
      tool('get-sum', { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }),
      tool('class', { type: 'object', properties: { from: { type: 'string' }, 'odd-key': { type: 'integer' } } }),
      tool('__dict__', { type: 'object', properties: {} }, { type: 'string' }, 'Says """hi""" \\ done'),
    ])
    expect(sdk).toMatchInlineSnapshot(`
      "from typing import Any, TypedDict, Unpack
      class ToolCallError(Exception): tool_name: str; code: str; message: str; call_id: str
      ClassArgs = TypedDict("ClassArgs", {
          "from": str,
          "odd-key": int,
      }, total=False)
      class tools:
          # tools["__dict__"]
          async def _() -> str:
              """Says \\"\\"\\"hi\\"\\"\\" \\\\ done"""
          async def class_(**kwargs: Unpack[ClassArgs]) -> Any: ...
          async def get_sum(*, a: float) -> Any: ...
      "
    `)
    expect(pythonSyntaxError(sdk)).toBe('')
  })

  it(`keeps ${SCHEMA_DEPTH_LIMIT} container levels exact and widens the next one to Any`, () => {
    const nest = (levels: number): JsonSchemaNode =>
      levels === 0 ? { type: 'string' } : { type: 'array', items: nest(levels - 1) }
    const exact = renderPythonSdk([tool('deep', { type: 'object', properties: { v: nest(SCHEMA_DEPTH_LIMIT - 1) } })])
    expect(exact).toContain(`${'list['.repeat(SCHEMA_DEPTH_LIMIT - 1)}str${']'.repeat(SCHEMA_DEPTH_LIMIT - 1)}`)
    const widened = renderPythonSdk([tool('deep', { type: 'object', properties: { v: nest(SCHEMA_DEPTH_LIMIT) } })])
    expect(widened).toContain(`${'list['.repeat(SCHEMA_DEPTH_LIMIT - 1)}list[Any]${']'.repeat(SCHEMA_DEPTH_LIMIT - 1)}`)
    expect(widened).not.toContain('str]')
  })

  it('names $defs shapes after their definitions and survives recursive references', () => {
    const sdk = renderPythonSdk([
      tool('tree', {
        type: 'object',
        properties: { root: { $ref: '#/$defs/node' } },
        required: ['root'],
        $defs: {
          node: {
            type: 'object',
            properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
            required: ['label'],
          },
        },
      }),
    ])
    expect(sdk).toContain('class Node(TypedDict):')
    expect(sdk).toContain('async def tree(*, root: Node)')
    expect(pythonSyntaxError(sdk)).toBe('')
  })
})
