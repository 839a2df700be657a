import { createNodePtcRuntime } from '@qilin-tools/code-mode-node/internal/create-node-ptc-runtime.js'
import { openWorkspace } from '@qilin-tools/toolkit/internal/workspace.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { isInvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { isToolRuntimeError } from 'qilin-tools/internal/errors/tool-runtime-error.js'
import { compileSchema } from 'qilin-tools/internal/json-schema/compile.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { timeoutPolicy } from 'qilin-tools/internal/pipeline/timeout-policy.js'
import { describe, expect, it } from 'vitest'

const tool = (name: string) =>
  defineTool({ name, description: `The ${name} tool.`, parameters: {}, execute: () => 'done' })

function thrownBy(action: () => unknown): unknown {
  try {
    action()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('API misuse throws branded errors with the specific message', () => {
  it('a runtime used against its state: ToolRuntimeError', async () => {
    const runtime = createToolRuntime()
    runtime.register(tool('read'))
    const ptcRuntime = createNodePtcRuntime()
    const withPtc = createToolRuntime({ ptcRuntime })
    try {
      const cases: [() => unknown, RegExp][] = [
        [() => runtime.register(tool('read')), /^register: a tool named read is already registered in /],
        [() => withPtc.register(tool('run_code')), /^register: run_code is reserved for the configured PTC runtime$/],
        [() => runtime.presentAs('ptc'), /^presentAs\('ptc'\): the runtime has no ptcRuntime; pass one/],
      ]
      for (const [action, message] of cases) {
        const error = thrownBy(action)
        expect(isToolRuntimeError(error), String(error)).toBe(true)
        expect((error as Error).message).toMatch(message)
        expect((error as Error).name).toBe('ToolRuntimeError')
      }
    } finally {
      await ptcRuntime.close()
    }
  })

  it('a value the function cannot use: InvalidArgumentError, still a TypeError', () => {
    const runtime = createToolRuntime()
    const cases: [() => unknown, RegExp][] = [
      [() => runtime.on('tools/nothing' as never, (() => {}) as never), /^on: unknown event tools\/nothing$/],
      [
        () => runtime.on('tools/execute', 'not a function' as never),
        /^on\(tools\/execute\): listener must be a function$/,
      ],
      [() => runtime.guard(42 as never), /^guard: expected a function$/],
      [() => runtime.restrict({ only: ['a'] } as never), /^restrict\(filter\): expected/],
      [
        () => runtime.presentAs('sideways' as never),
        /^presentAs: mode must be 'native', 'ptc' or 'both', not sideways$/,
      ],
      [() => runtime.agent(''), /^agent\(id\): id must be a non-empty string$/],
      [() => runtime.onToolsChanged(null as never), /^onToolsChanged: listener must be a function$/],
      [() => runtime.register({ name: 'x' } as never), /^register\(definition\): /],
      [() => timeoutPolicy({ graceMs: -1 }), /^timeoutPolicy: graceMs must be a non-negative number of ms$/],
      [() => compileSchema({}, { maxDepth: 0 }), /^maxDepth must be a positive integer, received 0$/],
      [
        () => openWorkspace('/nonexistent/qilin-workspace'),
        /^workspace root \/nonexistent\/qilin-workspace does not exist$/,
      ],
    ]
    for (const [action, message] of cases) {
      const error = thrownBy(action)
      expect(isInvalidArgumentError(error), String(error)).toBe(true)
      expect(error).toBeInstanceOf(TypeError)
      expect((error as Error).message).toMatch(message)
    }
  })
})
