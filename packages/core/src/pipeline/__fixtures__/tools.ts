import { defineTool } from '../../definition/define-tool.js'

export const add = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
  output: { schema: { type: 'number' } },
  executionMode: 'parallel',
  execute: ({ a, b }) => a + b,
})

export const echo = defineTool({
  name: 'echo',
  description: 'Return the text.',
  parameters: { text: { type: 'string', required: true } },
  execute: ({ text }) => text,
})

/** Waits `ms` unless its signal aborts first (then it rejects with the signal's reason). */
export const wait = defineTool({
  name: 'wait',
  description: 'Wait a while.',
  parameters: { ms: { type: 'integer', required: true, minimum: 0 } },
  executionMode: 'parallel',
  execute: ({ ms }, exec) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve('waited'), ms)
      exec.signal.addEventListener('abort', () => {
        clearTimeout(timer)
        reject(exec.signal.reason)
      })
    }),
})

/** A tool built around a body the test supplies. */
export function toolWith(
  name: string,
  execute: (args: { x?: number }, exec: import('../../definition/tool-definition.js').ToolExecution) => unknown,
  extra: { executionMode?: 'parallel' | 'exclusive'; timeoutMs?: number } = {},
) {
  return defineTool({
    name,
    description: `The ${name} tool.`,
    parameters: { x: { type: 'number' } },
    ...extra,
    execute: execute as never,
  })
}

/** A promise the test resolves by hand. */
export function deferred<Value = void>() {
  let resolve!: (value: Value) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<Value>((onResolve, onReject) => {
    resolve = onResolve
    reject = onReject
  })
  return { promise, resolve, reject }
}

export function call(name: string, args: unknown = {}, id = `call-${name}`) {
  return { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }
}
