import type { TokenCounter } from '../token-count.js'
import { type LogLine, preview } from './log-lines.js'

/** How an approval ended, as the log says. */
export interface InspectedApproval {
  readonly verdict: string
  readonly reasons: readonly string[]
  readonly reason?: string
  readonly decidedBy?: string
  readonly waitedMs?: number
}

/** Bytes and o200k tokens of sub-call results a program read that never reached the conversation. */
export interface KeptOut {
  readonly bytes: number
  readonly tokens: number
}

/** One call as the timeline lists it. */
export interface CallSummary {
  readonly index: number
  readonly id: string
  readonly name: string
  readonly agentId?: string
  /** The index of the `run_code` call a sub-call belongs to. */
  readonly parent?: number
  readonly children: number[]
  readonly startedAt?: number
  readonly durationMs?: number
  readonly state: 'running' | 'ok' | 'failed'
  readonly code?: string
  readonly approval?: InspectedApproval
  readonly keptOut?: KeptOut
  /** The first line the call appears on. */
  readonly line: number
}

/** Everything the log holds on one call, for its detail panel. */
export interface CallRecord extends CallSummary {
  readonly arguments?: unknown
  readonly content?: unknown
  readonly message?: string
  readonly metadata?: unknown
}

/** A line the inspector could not read as a record, shown as such. */
export interface MalformedLine {
  readonly line: number
  readonly reason: string
  readonly preview: string
}

type Mutable<Value> = { -readonly [Key in keyof Value]: Value[Key] }

const MAX_NAME = 500
/** Malformed lines listed; past this they are only counted, so a log of garbage cannot fill memory with previews. */
export const MAX_MALFORMED_LISTED = 1000

/**
 * The calls of one session log, built line by line as a log is read or followed. Every field is checked before it
 * is kept: a line of the wrong shape becomes a `MalformedLine`, never a crash.
 */
export class SessionModel {
  readonly calls: Mutable<CallRecord>[] = []
  readonly malformed: MalformedLine[] = []
  /** Every malformed line, listed or not. */
  malformedCount = 0
  readonly #open = new Map<string, number>()
  readonly #latest = new Map<string, number>()
  readonly #count: TokenCounter

  constructor(countTokens: TokenCounter) {
    this.#count = countTokens
  }

  /** Forgets everything: the log was rewritten from its start. */
  reset(): void {
    this.calls.length = 0
    this.malformed.length = 0
    this.malformedCount = 0
    this.#open.clear()
    this.#latest.clear()
  }

  /** Reads one line; returns the indices of the calls it changed. */
  add(line: LogLine): number[] {
    if (!line.ok) {
      this.#list({ line: line.number, reason: line.reason, preview: line.preview })
      return []
    }
    let value: unknown
    try {
      value = JSON.parse(line.text)
    } catch (error) {
      this.#malformed(line, `not JSON (${(error as Error).message.slice(0, 120)})`)
      return []
    }
    const record = asRecord(value)
    if (typeof record === 'string') {
      this.#malformed(line, record)
      return []
    }
    if (record.type === 'tool.call.started') return this.#started(record, line.number)
    const index = this.#open.get(keyOf(record))
    if (record.type === 'tool.call.approval') {
      if (index === undefined) {
        this.#malformed(line, `approval for call ${JSON.stringify(record.id)}, which has not started`)
        return []
      }
      this.calls[index]!.approval = approvalOf(record)
      return [index]
    }
    return this.#settled(record, index ?? this.#started(record, line.number)[0]!)
  }

  #malformed(line: Extract<LogLine, { ok: true }>, reason: string): void {
    this.#list({ line: line.number, reason, preview: preview(line.text) })
  }

  #list(line: MalformedLine): void {
    this.malformedCount++
    if (this.malformed.length < MAX_MALFORMED_LISTED) this.malformed.push(line)
  }

  #started(record: SessionRecord, line: number): number[] {
    const index = this.calls.length
    const call: Mutable<CallRecord> = { index, id: record.id, name: record.name, children: [], state: 'running', line }
    if (record.agentId !== undefined) call.agentId = record.agentId
    if (record.type === 'tool.call.started' && typeof record.at === 'number') call.startedAt = record.at
    if (record.arguments !== undefined) call.arguments = record.arguments
    const changed = [index]
    if (record.parentId !== undefined) {
      const parent = this.#latest.get(keyOf({ agentId: record.agentId, parentId: undefined, id: record.parentId }))
      if (parent !== undefined) {
        call.parent = parent
        this.calls[parent]!.children.push(index)
        changed.push(parent)
      }
    }
    this.calls.push(call)
    this.#open.set(keyOf(record), index)
    if (record.parentId === undefined) this.#latest.set(keyOf(record), index)
    return changed
  }

  #settled(record: SessionRecord, index: number): number[] {
    const call = this.calls[index]!
    this.#open.delete(keyOf(record))
    call.state = record.ok === true ? 'ok' : 'failed'
    if (typeof record.durationMs === 'number') call.durationMs = record.durationMs
    if (call.startedAt === undefined && typeof record.at === 'number' && call.durationMs !== undefined) {
      call.startedAt = record.at - call.durationMs
    }
    call.content = record.content
    if (record.metadata !== undefined) call.metadata = record.metadata
    const error = record.error as { code?: unknown; message?: unknown } | undefined
    if (call.state === 'failed') {
      call.code = typeof error?.code === 'string' ? error.code.slice(0, MAX_NAME) : 'UNKNOWN'
      if (typeof error?.message === 'string') call.message = error.message
    }
    if (call.children.length > 0 || call.name === 'run_code') call.keptOut = this.#keptOut(call)
    return [index]
  }

  /** The log's own figures when it has them (`metadata.bytesKeptOut`), else counted from the sub-call results. */
  #keptOut(program: CallRecord): KeptOut {
    const texts = program.children.flatMap((child) => textsOf(this.calls[child]!.content))
    const metadata = program.metadata as { bytesKeptOut?: unknown; tokensKeptOut?: unknown } | undefined
    const bytes =
      typeof metadata?.bytesKeptOut === 'number'
        ? metadata.bytesKeptOut
        : texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0)
    const tokens =
      typeof metadata?.tokensKeptOut === 'number'
        ? metadata.tokensKeptOut
        : texts.reduce((sum, text) => sum + this.#count(text), 0)
    return { bytes, tokens }
  }

  /** The summaries of the calls at `indices` (every call when omitted): what the timeline needs, no content. */
  summaries(indices?: readonly number[]): CallSummary[] {
    const calls = indices === undefined ? this.calls : indices.map((index) => this.calls[index]!)
    return calls.map(({ arguments: _a, content: _c, message: _m, metadata: _d, ...summary }) => summary)
  }
}

interface SessionRecord {
  readonly type: 'tool.call.started' | 'tool.call.approval' | 'tool.call.settled'
  readonly id: string
  readonly name: string
  readonly agentId: string | undefined
  readonly parentId: string | undefined
  readonly [field: string]: unknown
}

const TYPES = new Set(['tool.call.started', 'tool.call.approval', 'tool.call.settled'])

/** The record, or what is wrong with it. */
function asRecord(value: unknown): SessionRecord | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object'
  const record = value as Record<string, unknown>
  if (typeof record.type !== 'string' || !TYPES.has(record.type)) {
    return `unknown record type ${JSON.stringify(record.type)?.slice(0, 80) ?? 'undefined'}`
  }
  for (const field of ['id', 'name'] as const) {
    if (typeof record[field] !== 'string') return `${record.type} record without a string "${field}"`
  }
  for (const field of ['agentId', 'parentId'] as const) {
    if (record[field] !== undefined && typeof record[field] !== 'string') return `"${field}" is not a string`
  }
  return {
    ...record,
    type: record.type as SessionRecord['type'],
    id: (record.id as string).slice(0, MAX_NAME),
    name: (record.name as string).slice(0, MAX_NAME),
    agentId: (record.agentId as string | undefined)?.slice(0, MAX_NAME),
    parentId: (record.parentId as string | undefined)?.slice(0, MAX_NAME),
  }
}

function approvalOf(record: SessionRecord): InspectedApproval {
  const approval: Mutable<InspectedApproval> = {
    verdict: typeof record.verdict === 'string' ? record.verdict.slice(0, 40) : 'unknown',
    reasons: Array.isArray(record.reasons) ? record.reasons.filter((reason) => typeof reason === 'string') : [],
  }
  if (typeof record.reason === 'string') approval.reason = record.reason
  if (typeof record.decidedBy === 'string') approval.decidedBy = record.decidedBy.slice(0, MAX_NAME)
  if (typeof record.waitedMs === 'number') approval.waitedMs = record.waitedMs
  return approval
}

function keyOf(record: {
  readonly agentId: string | undefined
  readonly parentId: string | undefined
  readonly id: string
}): string {
  return `${record.agentId ?? ''}\u0000${record.parentId ?? ''}\u0000${record.id}`
}

function textsOf(content: unknown): string[] {
  if (!Array.isArray(content)) return []
  return content.flatMap((part) =>
    typeof part === 'object' && part !== null && part.type === 'text' && typeof part.text === 'string'
      ? [part.text]
      : [],
  )
}
