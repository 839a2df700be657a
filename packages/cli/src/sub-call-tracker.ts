import type { ContentPart } from 'qilin-tools/internal/definition/content.js'
import type { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import type { PreExecuteEvent, ResultEvent } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import { renderContent } from './render-content.js'
import { terminalText } from './terminal-text.js'

export interface SubCallRecord {
  readonly id: string
  readonly name: string
  readonly ok: boolean
  /** The failure code; undefined on success. */
  readonly code: ToolErrorCode | undefined
  readonly durationMs: number
  /** What the model would have read had it made this call itself. */
  readonly content: readonly ContentPart[]
}

/** A sub-call past validation that has not settled yet, and when it started (`performance.now()`). */
export interface RunningCall {
  readonly name: string
  readonly startedAt: number
  /** The latest progress an MCP server reported for it, as shown: `3/5 indexing`. */
  readonly progress?: string
}

/** A progress report of a running MCP call (`McpProgress`), as much as the status line shows. */
export interface CallProgress {
  readonly callId: string
  readonly progress: number
  readonly total?: number
  readonly message?: string
}

/** Characters of a server's progress message the status line shows. */
const PROGRESS_MESSAGE_LENGTH = 40

/**
 * Collects the settled sub-calls of one `run_code` call, and tells a listener as each one settles. `started` (a
 * `tools/pre-execute` listener) tracks the sub-calls running now, for the live status line.
 */
export function trackSubCalls(parentId: string, onSettled: (records: readonly SubCallRecord[]) => void) {
  const records: SubCallRecord[] = []
  const running = new Map<string, RunningCall>()
  return {
    records: records as readonly SubCallRecord[],
    running: running as ReadonlyMap<string, RunningCall>,
    started({ call }: PreExecuteEvent): undefined {
      if (call.parentId === parentId) running.set(call.id, { name: call.name, startedAt: performance.now() })
      return undefined
    },
    /** Notes a progress report against the running sub-call it belongs to; any other is ignored. */
    progressed(report: CallProgress): void {
      const call = running.get(report.callId)
      if (call !== undefined) running.set(report.callId, { ...call, progress: progressText(report) })
    },
    observe({ result, parentId: parent }: ResultEvent) {
      if (parent !== parentId) return
      running.delete(result.id)
      records.push({
        id: result.id,
        name: result.name,
        ok: result.ok,
        code: result.ok ? undefined : result.error.code,
        durationMs: result.durationMs,
        content: result.content,
      })
      onSettled(records)
    },
  }
}

/** How many running calls the status line names; the rest are counted. */
const RUNNING_SHOWN = 3

/**
 * The live status line: how many sub-calls settled, how many failed, and the latest; then the calls running now
 * with how long each has run (as of `now`, a `performance.now()` reading).
 */
export function progressLine(
  records: readonly SubCallRecord[],
  running: ReadonlyMap<string, RunningCall> = new Map(),
  now = performance.now(),
): string {
  const parts: string[] = []
  const last = records.at(-1)
  if (last !== undefined) {
    const failed = records.filter((record) => !record.ok).length
    const outcome = last.ok ? 'ok' : (last.code ?? 'failed')
    parts.push(
      `${records.length} call${records.length === 1 ? '' : 's'} settled${failed === 0 ? '' : `, ${failed} failed`} · ${last.name} ${outcome} ${Math.round(last.durationMs)} ms`,
    )
  }
  if (running.size > 0) {
    const calls = [...running.values()]
    const named = calls
      .slice(0, RUNNING_SHOWN)
      .map(
        (call) =>
          `${call.name} ${seconds(now - call.startedAt)}${call.progress === undefined ? '' : ` ${call.progress}`}`,
      )
    const more = calls.length > RUNNING_SHOWN ? ` +${calls.length - RUNNING_SHOWN} more` : ''
    parts.push(`running ${named.join(', ')}${more}`)
  }
  return parts.length === 0 ? '' : `run_code: ${parts.join(' · ')}`
}

/** `3/5`, `3` without a total, then the server's message cut to one short terminal-safe line. */
function progressText({ progress, total, message }: CallProgress): string {
  const count = total === undefined ? `${progress}` : `${progress}/${total}`
  return message === undefined || message === '' ? count : `${count} ${terminalText(message, PROGRESS_MESSAGE_LENGTH)}`
}

function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`
}

/** The text a sub-call result would have put into the conversation. */
export function subCallText(record: SubCallRecord): string {
  return renderContent(record.content)
}
