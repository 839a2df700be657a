import { argumentsTooLarge } from '@qilin-tools/code-mode/internal/arguments-too-large.js'
import { byteLength } from '@qilin-tools/code-mode/internal/byte-length.js'
import { type PtcFailure, PtcFailureKind } from '@qilin-tools/code-mode/internal/failure-kinds.js'
import type { PtcLimits } from '@qilin-tools/code-mode/internal/ptc-limits.js'
import type { ProgramRecord } from '@qilin-tools/code-mode/internal/render-outer-result.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import type { JsonObject, JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import type { PtcRunRequest } from 'qilin-tools/internal/pipeline/ptc-port.js'
import { isLosslessJson } from './lossless-json.js'
import { toolAttributes } from './python-names.js'
import type { RunnerProcess } from './runner-process.js'

export type RunnerRunResult =
  | { readonly ok: true; readonly record: ProgramRecord; readonly value: JsonValue | undefined }
  | { readonly ok: false; readonly record: ProgramRecord; readonly failure: PtcFailure }

/** How long past its own deadline the runner gets to report before the host kills its process group. */
const killGraceMs = 500

const runnerKinds = new Set<string>([
  PtcFailureKind.SYNTAX,
  PtcFailureKind.RUNTIME,
  PtcFailureKind.DEADLINE,
  PtcFailureKind.MEMORY,
  PtcFailureKind.OUTPUT_LIMIT,
  PtcFailureKind.RESULT_LIMIT,
])

/**
 * Runs one program on a ready runner: answers its sub-calls through `request.callTool` (only for names in
 * `request.toolNames`), keeps its output within the caps, and kills the process group at the deadline
 * (plus a short grace), on abort, or when the runner breaks the protocol. Always ends with the process gone.
 */
export function runOnRunner(
  runner: RunnerProcess,
  request: PtcRunRequest,
  options: { readonly limits: PtcLimits; readonly timeoutMs: number },
): Promise<RunnerRunResult> {
  const { limits, timeoutMs } = options
  const allowed = new Set(request.toolNames)
  const lines: string[] = []
  const subResults: ToolResult[] = []
  let partial = ''
  let outputBytes = 0
  let inputBytes = 0
  let calls = 0
  const record = (): ProgramRecord => ({ lines: partial === '' ? lines : [...lines, partial], subResults })

  return new Promise<RunnerRunResult>((resolve) => {
    let settled = false
    const finish = (result: RunnerRunResult) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      request.signal.removeEventListener('abort', onAbort)
      runner.kill()
      resolve(result)
    }
    const fail = (kind: PtcFailure['kind'], message: string) =>
      finish({ ok: false, record: record(), failure: { kind, message } })
    const deadline = setTimeout(
      () => fail(PtcFailureKind.DEADLINE, `the program ran past its ${timeoutMs / 1000} s deadline and was killed`),
      timeoutMs + killGraceMs,
    )
    const onAbort = () => fail(PtcFailureKind.ABORTED, 'the run was cancelled')
    request.signal.addEventListener('abort', onAbort, { once: true })

    const print = (text: string) => {
      outputBytes += byteLength(text)
      const pieces = (partial + text).split('\n')
      partial = pieces.pop() ?? ''
      lines.push(...pieces)
      if (outputBytes > limits.maxOutputBytes)
        fail(PtcFailureKind.OUTPUT_LIMIT, `printed output passed ${limits.maxOutputBytes} bytes`)
    }

    const refuse = (id: JsonValue | undefined, code: string, message: string) =>
      runner.send({ t: 'result', id: id ?? null, ok: false, error: { code, message } })
    /** Whether the program may call `name`; refuses the call when not. */
    const available = (id: JsonValue | undefined, name: unknown): name is string => {
      if (typeof name === 'string' && allowed.has(name)) return true
      refuse(id, ToolErrorCode.UNKNOWN_TOOL, `no tool named ${JSON.stringify(name)} is available to this program`)
      return false
    }
    /** A call the channel dropped unread because its arguments alone passed the limit. */
    const oversized = (id: number, name: string) => {
      if (settled || !available(id, name)) return
      refuse(id, ToolErrorCode.INVALID_ARGUMENTS, argumentsTooLarge(limits.maxArgumentBytes))
    }

    const answer = async (id: JsonValue | undefined, name: unknown, args: unknown) => {
      const reply = (body: JsonObject) => runner.send({ t: 'result', id: id ?? null, ...body })
      if (!available(id, name)) return
      if (typeof args !== 'object' || args === null || Array.isArray(args) || !isLosslessJson(args)) {
        refuse(id, ToolErrorCode.INVALID_ARGUMENTS, 'arguments must be a JSON object')
        return
      }
      // Counted as the TypeScript runtime counts them: UTF-8 bytes of the JSON text.
      if (byteLength(JSON.stringify(args)) > limits.maxArgumentBytes) {
        refuse(id, ToolErrorCode.INVALID_ARGUMENTS, argumentsTooLarge(limits.maxArgumentBytes))
        return
      }
      calls++
      if (calls > limits.maxSubCalls) {
        fail(PtcFailureKind.SUB_CALL_LIMIT, `the program made more than ${limits.maxSubCalls} tool calls`)
        return
      }
      let result: ToolResult
      try {
        result = await request.callTool(name, args as JsonObject)
      } catch (error) {
        fail(PtcFailureKind.SANDBOX, `the host failed a tool call: ${(error as Error).message}`)
        return
      }
      if (settled) return
      subResults.push(result)
      if (!result.ok) {
        const { code, message } = result.error
        reply({ ok: false, callId: result.id, error: { code, message } })
        return
      }
      const value = result.value ?? null
      const text = JSON.stringify(value)
      inputBytes += byteLength(text)
      if (inputBytes > limits.maxInputBytes) {
        fail(PtcFailureKind.INPUT_BUDGET, `tool results passed the ${limits.maxInputBytes} byte budget`)
        return
      }
      reply({ ok: true, callId: result.id, value })
    }

    runner.listen(
      (message) => {
        if (settled) return
        if (message.t === 'out' && typeof message.text === 'string') print(message.text)
        else if (message.t === 'call') void answer(message.id, message.name, message.args)
        else if (message.t === 'done') settle(message)
      },
      { maxArgumentBytes: limits.maxArgumentBytes, refuse: oversized },
    )

    const settle = (message: JsonObject) => {
      const error = message.error
      if (typeof error === 'object' && error !== null && !Array.isArray(error)) {
        const kind = String(error.kind)
        fail(runnerKinds.has(kind) ? (kind as PtcFailure['kind']) : PtcFailureKind.SANDBOX, String(error.message))
        return
      }
      const value = message.value
      if (value !== undefined && value !== null && !isLosslessJson(value)) {
        fail(PtcFailureKind.RUNTIME, 'the returned value is not lossless JSON')
        return
      }
      if (value !== undefined && value !== null && byteLength(JSON.stringify(value)) > limits.maxResultBytes) {
        fail(PtcFailureKind.RESULT_LIMIT, `the returned value is over the ${limits.maxResultBytes} byte limit`)
        return
      }
      finish({ ok: true, record: record(), value: value ?? undefined })
    }

    void runner.exited.then(({ code, signal }) => {
      if (settled) return
      if (signal === 'SIGXCPU') fail(PtcFailureKind.DEADLINE, 'the program used up its CPU time')
      else {
        const how = signal === null ? `exit code ${code}` : `signal ${signal}`
        fail(PtcFailureKind.SANDBOX, `the Python runner stopped unexpectedly (${how}): ${runner.diagnostics()}`)
      }
    })
    runner.send({ t: 'start', code: request.code, tools: toolEntries(request.toolNames), timeoutMs })
  })
}

/** `[name, attribute or null]` for each tool: the spellings the SDK shows. */
function toolEntries(names: readonly string[]): JsonValue {
  const attributes = toolAttributes(names)
  return names.map((name) => [name, attributes.get(name) ?? null])
}
