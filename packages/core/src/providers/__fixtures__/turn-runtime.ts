import { defineTool } from '../../definition/define-tool.js'
import type { DeferredToolResult, ToolCall, ToolPending } from '../../pipeline/call.js'
import { createToolRuntime } from '../../pipeline/create-tool-runtime.js'
import type { TurnRuntime } from '../run-tool-turn.js'

/** A runtime of three tools: `add` (parallel), `boom` (throws) and `wait` (runs until its signal aborts). */
export function turnRuntime() {
  const runtime = createToolRuntime()
  runtime.register(
    defineTool({
      name: 'add',
      description: 'Adds two numbers',
      parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
      executionMode: 'parallel',
      execute: ({ a, b }) => a + b,
    }),
  )
  runtime.register(
    defineTool({
      name: 'boom',
      description: 'Always fails',
      parameters: {},
      execute: () => {
        throw new Error('the fuse blew')
      },
    }),
  )
  runtime.register(
    defineTool({
      name: 'wait',
      description: 'Waits until cancelled',
      parameters: {},
      execute: (_args, exec) =>
        new Promise<string>((resolve) => exec.signal.addEventListener('abort', () => resolve('stopped'))),
    }),
  )
  return runtime
}

/** A pending approval for `call`, as a runtime with `approvals: 'defer'` returns it. */
export function pendingFor(call: ToolCall): ToolPending {
  return {
    id: call.id,
    name: call.name,
    ok: false,
    status: 'pending',
    approvalId: `approval-${call.id}`,
    approval: { toolName: call.name, arguments: {}, reasons: ['it deletes files'], expiresAt: 0 },
    content: [{ type: 'text', text: `The call to ${call.name} is awaiting a person's approval.` }],
    durationMs: 0,
  }
}

/** `runtime`, except that calls to `defer` come back pending, the way `approvals: 'defer'` answers them. */
export function deferring(runtime: ReturnType<typeof turnRuntime>, defer: string): TurnRuntime {
  return {
    prompt: () => runtime.prompt(),
    async executeAll(calls, options) {
      const ran = await runtime.executeAll(
        calls.filter((call) => call.name !== defer),
        options,
      )
      return calls.map(
        (call): DeferredToolResult =>
          call.name === defer ? pendingFor(call) : ran.find((result) => result.id === call.id)!,
      )
    },
  }
}
