import { thrownMessage } from '../errors/thrown-message.js'
import type { JsonValue } from '../json-schema/json-value.js'
import type { SessionLog, ToolCallSettledRecord, ToolCallStartedRecord } from '../session-log/session-log.js'
import type { ToolResult } from './call.js'
import { isPromiseLike } from './call-outcome.js'
import type { CallRun } from './call-run.js'

/** Logs the call as it arrived. Not awaited: durability is promised for settled records. */
export function recordStarted(run: CallRun, normalizedArguments: JsonValue): void {
  const log = run.scope.core.sessionLog
  if (log === undefined) return
  const agentId = run.scope.agentId
  const record: ToolCallStartedRecord = {
    type: 'tool.call.started',
    id: run.call.id,
    name: run.call.name,
    arguments: normalizedArguments,
    ...(agentId === undefined ? {} : { agentId }),
    ...(run.parentId === undefined ? {} : { parentId: run.parentId }),
    at: Date.now(),
  }
  append(log, record)
}

/** Logs the final result; the returned promise (if any) settles once the log holds it. Never rejects. */
export function recordSettled(run: CallRun, result: ToolResult): void | Promise<void> {
  const log = run.scope.core.sessionLog
  if (log === undefined) return
  const agentId = run.scope.agentId
  const record: ToolCallSettledRecord = {
    type: 'tool.call.settled',
    id: result.id,
    name: result.name,
    ok: result.ok,
    content: result.content,
    ...(result.ok ? {} : { error: result.error }),
    durationMs: result.durationMs,
    ...(result.metadata === undefined ? {} : { metadata: result.metadata }),
    ...(agentId === undefined ? {} : { agentId }),
    ...(run.parentId === undefined ? {} : { parentId: run.parentId }),
    at: Date.now(),
  }
  return append(log, record)
}

function append(log: SessionLog, record: ToolCallStartedRecord | ToolCallSettledRecord): void | Promise<void> {
  try {
    const written = log.append(record)
    if (isPromiseLike(written)) return Promise.resolve(written).catch(reportLogFailure)
  } catch (error) {
    reportLogFailure(error)
  }
}

/** A log that fails must not fail the call; the failure still has to be visible to the operator. */
function reportLogFailure(error: unknown): void {
  process.emitWarning(`qilin-tools: session log append failed: ${thrownMessage(error)}`)
}
