import { describe, expect, it } from 'vitest'
import { defineTool } from '../definition/define-tool.js'
import type { ExecutionMode, ToolAnnotations } from '../definition/tool-definition.js'
import { call } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import { declaredMode } from './execution-mode.js'

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

/** How many calls of one `executeAll` batch of three ran at the same time, at most. */
async function overlapOf(declared: { annotations?: ToolAnnotations; executionMode?: ExecutionMode }) {
  let running = 0
  let most = 0
  const runtime = createToolRuntime()
  runtime.register(
    defineTool({
      name: 'probe',
      description: 'Counts overlapping runs.',
      parameters: {},
      ...declared,
      execute: async () => {
        most = Math.max(most, ++running)
        for (let index = 0; index < 5; index++) await tick()
        running--
        return 'ok'
      },
    }),
  )
  await runtime.executeAll([call('probe', {}, 'a'), call('probe', {}, 'b'), call('probe', {}, 'c')])
  return most
}

describe('the execution mode a definition declares', () => {
  it('is parallel for a DSL tool with readOnlyHint and no executionMode, as for an MCP tool', async () => {
    expect(await overlapOf({ annotations: { readOnlyHint: true } })).toBe(3)
  })

  it('stays exclusive without the hint, with readOnlyHint false, or when executionMode says so', async () => {
    expect(await overlapOf({})).toBe(1)
    expect(await overlapOf({ annotations: { readOnlyHint: false, idempotentHint: true } })).toBe(1)
    expect(await overlapOf({ annotations: { readOnlyHint: true }, executionMode: 'exclusive' })).toBe(1)
  })

  it('asks a classifier with the arguments, and takes a classifier that throws as exclusive', () => {
    const classified = defineTool({
      name: 'classified',
      description: 'Reads unless told to write.',
      parameters: { write: { type: 'boolean' } },
      annotations: { readOnlyHint: true },
      executionMode: (args) => (args.write === true ? 'exclusive' : 'parallel'),
      execute: () => 'ok',
    })
    expect(declaredMode(classified, { write: false })).toBe('parallel')
    expect(declaredMode(classified, { write: true })).toBe('exclusive')
    const throwing = { ...classified, executionMode: () => JSON.parse('{') as ExecutionMode }
    expect(declaredMode(throwing, {})).toBe('exclusive')
  })
})
