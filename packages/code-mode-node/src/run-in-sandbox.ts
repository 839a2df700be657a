import { argumentsTooLarge } from '@qilin-tools/code-mode/internal/arguments-too-large.js'
import { byteLength } from '@qilin-tools/code-mode/internal/byte-length.js'
import { type PtcFailure, PtcFailureKind } from '@qilin-tools/code-mode/internal/failure-kinds.js'
import type { PtcLimits } from '@qilin-tools/code-mode/internal/ptc-limits.js'
import type { ProgramRecord } from '@qilin-tools/code-mode/internal/render-outer-result.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import type { JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import type { PtcRunRequest } from 'qilin-tools/internal/pipeline/ptc-port.js'
import { disposeSandbox, type PreparedSandbox } from './isolate-pool.js'

export type SandboxRunResult =
  | { readonly ok: true; readonly record: ProgramRecord; readonly value: JsonValue | undefined }
  | { readonly ok: false; readonly record: ProgramRecord; readonly failure: PtcFailure }

/** Callbacks into one run inside the isolate, for measuring it. */
export interface SandboxRunHooks {
  /** The program's first statement is about to run. */
  readonly started?: () => void
}

/** Kinds the prelude may report from inside the isolate; anything else it says is a runtime failure. */
const insideKinds = new Set<string>([
  PtcFailureKind.RUNTIME,
  PtcFailureKind.OUTPUT_LIMIT,
  PtcFailureKind.RESULT_LIMIT,
  PtcFailureKind.SUB_CALL_LIMIT,
  PtcFailureKind.INPUT_BUDGET,
])

type IsolateMessage = { readonly t: string } & Record<string, unknown>

/**
 * Runs one stripped program in a prepared sandbox and disposes the isolate when it settles, whatever
 * settles it: the program, a limit, the deadline or the caller's signal. Every limit is also counted
 * here, outside the isolate, so a program that tampers with the prelude still hits it.
 */
export function runInSandbox(
  sandbox: PreparedSandbox,
  javascript: string,
  request: PtcRunRequest,
  options: { readonly limits: PtcLimits; readonly timeoutMs: number; readonly hooks?: SandboxRunHooks },
): Promise<SandboxRunResult> {
  const { limits, timeoutMs } = options
  const lines: string[] = []
  const subResults: ToolResult[] = []
  const record: ProgramRecord = { lines, subResults }
  const toolNames = new Set(request.toolNames)
  const timers = new Map<unknown, ReturnType<typeof setTimeout>>()
  let outputBytes = 0
  let inputBytes = 0
  let subCalls = 0
  let settled = false

  return new Promise<SandboxRunResult>((resolve) => {
    const finish = (result: SandboxRunResult) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      for (const timer of timers.values()) clearTimeout(timer)
      request.signal.removeEventListener('abort', onAbort)
      sandbox.channel.receive = () => {}
      disposeSandbox(sandbox)
      resolve(result)
    }
    const fail = (kind: PtcFailure['kind'], message: string) =>
      finish({ ok: false, record, failure: { kind, message } })
    const deliver = (message: unknown) => {
      if (settled) return
      try {
        sandbox.deliver.applyIgnored(undefined, [JSON.stringify(message)])
      } catch {
        // The isolate is gone; whatever disposed it settles the run.
      }
    }

    const settleSubCall = (id: number, result: ToolResult) => {
      if (settled) return
      subResults.push(result)
      if (!result.ok) {
        const error = {
          toolName: result.name,
          code: result.error.code,
          message: result.error.message,
          callId: result.id,
        }
        return deliver({ t: 'result', id, ok: false, error })
      }
      const value = JSON.stringify(result.value ?? null)
      inputBytes += byteLength(value)
      if (inputBytes > limits.maxInputBytes) {
        return fail(PtcFailureKind.INPUT_BUDGET, `tool results exceeded ${limits.maxInputBytes} bytes`)
      }
      deliver({ t: 'result', id, ok: true, value })
    }

    const handlers: Record<string, (message: IsolateMessage) => void> = {
      started: () => options.hooks?.started?.(),
      print: (message) => {
        const text = String(message.text)
        outputBytes += byteLength(text) + 1
        if (outputBytes > limits.maxOutputBytes) {
          return fail(PtcFailureKind.OUTPUT_LIMIT, `printed more than ${limits.maxOutputBytes} bytes`)
        }
        lines.push(text)
      },
      call: (message) => {
        const id = Number(message.id)
        const name = String(message.name)
        subCalls++
        if (subCalls > limits.maxSubCalls) {
          return fail(PtcFailureKind.SUB_CALL_LIMIT, `more than ${limits.maxSubCalls} tool calls`)
        }
        if (!toolNames.has(name)) {
          const error = {
            toolName: name,
            code: ToolErrorCode.UNKNOWN_TOOL,
            message: `unknown tool ${name}`,
            callId: '',
          }
          return deliver({ t: 'result', id, ok: false, error })
        }
        if (byteLength(JSON.stringify(message.args ?? null)) > limits.maxArgumentBytes) {
          const reason = argumentsTooLarge(limits.maxArgumentBytes)
          const error = { toolName: name, code: ToolErrorCode.INVALID_ARGUMENTS, message: reason, callId: '' }
          return deliver({ t: 'result', id, ok: false, error })
        }
        request.callTool(name, message.args as JsonValue).then(
          (result) => settleSubCall(id, result),
          (error: unknown) => fail(PtcFailureKind.SANDBOX, `a tool call broke the bridge: ${String(error)}`),
        )
      },
      timer: (message) => {
        if (timers.size >= limits.maxPendingTimers) {
          return fail(PtcFailureKind.RUNTIME, `more than ${limits.maxPendingTimers} pending timers`)
        }
        const fire = () => {
          timers.delete(message.id)
          deliver({ t: 'timer', id: message.id })
        }
        timers.set(message.id, setTimeout(fire, Math.min(Number(message.ms) || 0, timeoutMs)))
      },
      clear: (message) => {
        clearTimeout(timers.get(message.id))
        timers.delete(message.id)
      },
      done: (message) => {
        if (typeof message.value !== 'string') return finish({ ok: true, record, value: undefined })
        if (byteLength(message.value) > limits.maxResultBytes) {
          return fail(PtcFailureKind.RESULT_LIMIT, `returned more than ${limits.maxResultBytes} bytes`)
        }
        finish({ ok: true, record, value: JSON.parse(message.value) as JsonValue })
      },
      fail: (message) => {
        const kind = insideKinds.has(String(message.kind)) ? (message.kind as PtcFailure['kind']) : 'runtime'
        fail(kind, String(message.message))
      },
    }

    sandbox.channel.receive = (text) => {
      if (settled) return
      let message: IsolateMessage
      try {
        message = JSON.parse(text) as IsolateMessage
      } catch {
        return fail(PtcFailureKind.SANDBOX, 'the sandbox sent a malformed message')
      }
      // Only the handlers' own names: a message named after an Object.prototype member must reach nothing.
      const kind = String(message.t)
      if (Object.hasOwn(handlers, kind)) handlers[kind]!(message)
    }

    const deadline = setTimeout(
      () => fail(PtcFailureKind.DEADLINE, `the program ran past its ${timeoutMs} ms deadline`),
      timeoutMs,
    )
    const onAbort = () => fail(PtcFailureKind.ABORTED, 'the run was cancelled')
    if (request.signal.aborted) return onAbort()
    request.signal.addEventListener('abort', onAbort, { once: true })

    const settings = JSON.stringify({ toolNames: request.toolNames, limits })
    startProgram(sandbox, javascript, settings).catch((error: unknown) => {
      if (settled) return
      fail(...classifyStartError(error, sandbox))
    })
  })
}

async function startProgram(sandbox: PreparedSandbox, javascript: string, settings: string): Promise<void> {
  const script = await sandbox.isolate.compileScript(`(async function () { 'use strict';\n${javascript}\n})`, {
    filename: 'program.ts',
    lineOffset: -1,
  })
  const program = await script.run(sandbox.context, { reference: true })
  await sandbox.start.apply(undefined, [program.derefInto(), settings], { result: { promise: true } })
}

function classifyStartError(error: unknown, sandbox: PreparedSandbox): [PtcFailure['kind'], string] {
  const message = thrownMessage(error)
  if (/memory limit/i.test(message)) return [PtcFailureKind.MEMORY, 'the program ran out of sandbox memory']
  if (error instanceof SyntaxError) return [PtcFailureKind.SYNTAX, message]
  if (sandbox.isolate.isDisposed) return [PtcFailureKind.MEMORY, 'the sandbox was disposed while the program ran']
  return [PtcFailureKind.SANDBOX, message]
}
