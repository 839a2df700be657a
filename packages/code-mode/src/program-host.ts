import { byteLength } from 'qilin-tools/internal/definition/byte-length.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import type { JsonObject, JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import { type PtcFailure, PtcFailureKind } from './failure-kinds.js'
import { ptcFailure } from './failure-text.js'
import { type HostMessage, type ProgramMessage, type ProgramReport, readProgramMessage } from './program-messages.js'
import { ProgramTimers } from './program-timers.js'
import type { PtcLimits } from './ptc-limits.js'
import type { PtcRunRequest } from './ptc-port.js'
import type { ProgramRecord } from './render-outer-result.js'
import { reportedFailure } from './reported-failure.js'
import { returnedValueFailure } from './returned-value.js'
import { argumentRefusal, subCallRefusalText } from './sub-call-refusals.js'
import { untilQuiet } from './until-quiet.js'

/** A runtime's wire: it only carries messages. `ProgramHost` decides everything they mean. */
export interface ProgramTransport {
  /** One message to the program; a program already gone ignores it. Must not throw. */
  send(message: HostMessage): void
  /** Ends the program for good (dispose the isolate, kill the process group). Called once. */
  stop(): void
}

export type ProgramRunResult =
  | { readonly ok: true; readonly record: ProgramRecord; readonly value: JsonValue | undefined }
  | { readonly ok: false; readonly record: ProgramRecord; readonly failure: PtcFailure }

export interface ProgramHostOptions {
  readonly limits: PtcLimits
  /** The deadline the program has, as the model reads it in a deadline failure. */
  readonly timeoutMs: number
  /** How long past the deadline the program's side may still report it itself before the host decides. @default 0 */
  readonly deadlineGraceMs?: number
  /** The program's first statement is about to run. @default none */
  readonly started?: () => void
}

/**
 * How long a decided run waits for sub-calls that ignore their aborted signal before it settles anyway: as long as
 * the pipeline's own `timeoutPolicy` waits for such a body, so none can hold the run forever.
 */
export const SUB_CALL_SETTLE_GRACE_MS = 1_000

/** Malformed or unknown messages a run may send before it fails as `protocol`. */
export const MALFORMED_MESSAGE_BUDGET = 16

/**
 * The host side of one program run, written once for both runtimes. It validates every message on arrival,
 * counts every limit itself, answers sub-calls through `request.callTool`, keeps the program's timers (at most
 * `maxPendingTimers` live at once), and owns the deadline and the caller's signal. The run's result settles only
 * after every sub-call it started has settled: a run that ends early aborts them and waits.
 */
export class ProgramHost {
  /** Resolves once the run is decided and every sub-call it started has settled. Never rejects. */
  readonly result: Promise<ProgramRunResult>
  readonly limits: PtcLimits
  readonly timeoutMs: number
  readonly #transport: ProgramTransport
  readonly #request: PtcRunRequest
  readonly #started: (() => void) | undefined
  readonly #toolNames: ReadonlySet<string>
  readonly #lines: string[] = []
  #partial = ''
  readonly #subResults: ToolResult[] = []
  readonly #timers: ProgramTimers
  readonly #inFlight = new Set<Promise<void>>()
  /** Aborted when the run is decided: what a sub-call still running must stop for. */
  readonly #ended = new AbortController()
  readonly #deadline: ReturnType<typeof setTimeout>
  #resolve!: (result: ProgramRunResult) => void
  #decided = false
  #outputBytes = 0
  #inputBytes = 0
  #subCalls = 0
  #malformed = 0

  constructor(transport: ProgramTransport, request: PtcRunRequest, options: ProgramHostOptions) {
    this.#transport = transport
    this.#request = request
    this.limits = options.limits
    this.timeoutMs = options.timeoutMs
    this.#started = options.started
    this.#toolNames = new Set(request.toolNames)
    this.#timers = new ProgramTimers(this.limits.maxPendingTimers, (id) => {
      if (!this.#decided) this.#transport.send({ t: 'timer', id })
    })
    this.result = new Promise((resolve) => {
      this.#resolve = resolve
    })
    this.#deadline = setTimeout(
      () => this.fail(ptcFailure(PtcFailureKind.DEADLINE, { timeoutMs: this.timeoutMs })),
      this.timeoutMs + (options.deadlineGraceMs ?? 0),
    )
    if (request.signal.aborted) this.#onAbort()
    else request.signal.addEventListener('abort', this.#onAbort, { once: true })
  }

  /** Whether the run is decided; a decided run ignores every later message. */
  get decided(): boolean {
    return this.#decided
  }

  /** Sub-calls started and not yet settled. */
  get callsRunning(): number {
    return this.#inFlight.size
  }

  /** What the program printed so far, the unfinished last line included. */
  get record(): ProgramRecord {
    return { lines: this.#partial === '' ? this.#lines : [...this.#lines, this.#partial], subResults: this.#subResults }
  }

  /**
   * One message as it arrived on the wire (parsed JSON), with the length of its text when the wire knows it (a
   * short call's arguments need no second serialisation to be measured). Any exception handling it fails the run
   * with a reason.
   */
  receive(raw: unknown, textLength?: number): void {
    if (this.#decided) return
    const read = readProgramMessage(raw, this.limits)
    if (!read.ok) {
      this.malformed(read.problem, read.terminal)
      return
    }
    try {
      this.#handle(read.message, textLength)
    } catch (error) {
      this.fail(
        ptcFailure(PtcFailureKind.SANDBOX, {
          what: `the host failed handling a "${read.message.t}" message: ${thrownMessage(error)}`,
        }),
      )
    }
  }

  /** A message the wire could not even read. Counted against the budget; a malformed end fails at once. */
  malformed(problem: string, terminal = false): void {
    if (this.#decided) return
    this.#malformed++
    if (terminal || this.#malformed > MALFORMED_MESSAGE_BUDGET) {
      const counted = terminal ? problem : `${this.#malformed} malformed or unknown messages, the last ${problem}`
      this.fail(ptcFailure(PtcFailureKind.PROTOCOL, { problem: counted }))
    }
  }

  /** A call the wire dropped unread because its arguments alone passed the limit. */
  oversizedCall(id: number, name: string): void {
    if (this.#decided || !this.#countCall()) return
    if (this.#available(id, name)) this.#refuse(id, name, subCallRefusalText.tooLarge(this.limits.maxArgumentBytes))
  }

  /** Decides the run as failed (the first decision wins). */
  fail(failure: PtcFailure): void {
    this.#decide({ ok: false, record: this.record, failure })
  }

  #handle(message: ProgramMessage, textLength: number | undefined) {
    switch (message.t) {
      case 'started':
        return this.#started?.()
      case 'out':
        return this.#print(message.text)
      case 'call':
        return this.#call(message.id, message.name, message.args, textLength)
      case 'timer':
        return this.#timer(message.id, message.ms)
      case 'clear':
        return this.#timers.clear(message.id)
      case 'done':
        return 'error' in message ? this.#reported(message.error) : this.#done(message.value)
    }
  }

  #print(text: string) {
    this.#outputBytes += byteLength(text)
    const pieces = (this.#partial + text).split('\n')
    this.#partial = pieces.pop() ?? ''
    this.#lines.push(...pieces)
    if (this.#outputBytes > this.limits.maxOutputBytes) {
      this.fail(ptcFailure(PtcFailureKind.OUTPUT_LIMIT, this.limits))
      return
    }
    const onOutput = this.#request.onOutput
    if (onOutput !== undefined) for (const line of pieces) showLine(onOutput, line)
  }

  #countCall(): boolean {
    this.#subCalls++
    if (this.#subCalls <= this.limits.maxSubCalls) return true
    this.fail(ptcFailure(PtcFailureKind.SUB_CALL_LIMIT, this.limits))
    return false
  }

  #available(id: number, name: string): boolean {
    if (this.#toolNames.has(name)) return true
    this.#refuse(id, name, subCallRefusalText.unknownTool(name), ToolErrorCode.UNKNOWN_TOOL)
    return false
  }

  #refuse(id: number, toolName: string, message: string, code: string = ToolErrorCode.INVALID_ARGUMENTS) {
    this.#transport.send({ t: 'result', id, ok: false, callId: '', error: { toolName, code, message } })
  }

  #call(id: number, name: string, args: JsonValue, textLength: number | undefined) {
    if (!this.#countCall() || !this.#available(id, name)) return
    const refusal = argumentRefusal(args, this.limits, textLength)
    if (refusal !== undefined) return this.#refuse(id, name, refusal)
    const settled: Promise<void> = this.#request.callTool(name, args as JsonObject, this.#ended.signal).then(
      (result) => this.#settled(settled, () => this.#settleSubCall(id, result)),
      (error: unknown) =>
        this.#settled(settled, () =>
          this.fail(
            ptcFailure(PtcFailureKind.SANDBOX, { what: `a tool call broke the bridge: ${thrownMessage(error)}` }),
          ),
        ),
    )
    this.#inFlight.add(settled)
  }

  /** One sub-call is over: it leaves the in-flight set, and a host exception delivering it fails the run. */
  #settled(call: Promise<void>, deliver: () => void) {
    this.#inFlight.delete(call)
    try {
      deliver()
    } catch (error) {
      this.fail(
        ptcFailure(PtcFailureKind.SANDBOX, { what: `the host failed delivering a result: ${thrownMessage(error)}` }),
      )
    }
  }

  #settleSubCall(id: number, result: ToolResult) {
    this.#subResults.push(result)
    if (this.#decided) return
    if (!result.ok) {
      const { code, message } = result.error
      const error = { toolName: result.name, code, message }
      return this.#transport.send({ t: 'result', id, ok: false, callId: result.id, error })
    }
    const value = result.value ?? null
    const json = JSON.stringify(value)
    this.#inputBytes += byteLength(json)
    if (this.#inputBytes > this.limits.maxInputBytes)
      return this.fail(ptcFailure(PtcFailureKind.INPUT_BUDGET, this.limits))
    this.#transport.send({ t: 'result', id, ok: true, callId: result.id, value, json })
  }

  #timer(id: number, ms: number) {
    const set = this.#timers.set(id, Math.min(ms, this.timeoutMs))
    if (set === 'reused') this.malformed(`a "timer" message reusing the live id ${id}`)
    else if (set === 'full') this.fail(ptcFailure(PtcFailureKind.TIMER_LIMIT, this.limits))
  }

  #reported(report: ProgramReport) {
    const failure = reportedFailure(report, this)
    if (failure === undefined)
      return this.malformed(`a "done" message with an unknown failure kind ${JSON.stringify(report.kind)}`, true)
    this.fail(failure)
  }

  #done(value: JsonValue | undefined) {
    if (value === undefined || value === null) return this.#decide({ ok: true, record: this.record, value: undefined })
    const refused = returnedValueFailure(value, this.limits)
    if (refused !== undefined) return this.fail(refused)
    this.#decide({ ok: true, record: this.record, value })
  }

  readonly #onAbort = (): void => this.fail(ptcFailure(PtcFailureKind.ABORTED))

  /** Stops the program and its timers at once; resolves only when no sub-call it started is still running. */
  #decide(result: ProgramRunResult) {
    if (this.#decided) return
    this.#decided = true
    clearTimeout(this.#deadline)
    this.#timers.clearAll()
    this.#request.signal.removeEventListener('abort', this.#onAbort)
    try {
      this.#transport.stop()
    } finally {
      this.#ended.abort(new Error('the run_code program ended before this call settled'))
      if (this.#inFlight.size === 0) this.#resolve(result)
      else void untilQuiet(this.#inFlight, SUB_CALL_SETTLE_GRACE_MS).then(() => this.#resolve(result))
    }
  }
}

/** A host's live view of the output may fail; the run goes on as if it had not looked. */
function showLine(onOutput: (line: string) => void, line: string): void {
  try {
    onOutput(line)
  } catch {
    // Dropped: a viewer never changes the run.
  }
}
