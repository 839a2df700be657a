import type { ToolErrorInfo } from '../errors/tool-error.js'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import type { SessionLog, SessionLogRecord } from '../session-log/session-log.js'

/**
 * Where a deferred approval waits: `pending` until someone decides, `claimed` while the deciding process re-checks
 * and runs the call, `settled` once its outcome is recorded. A claim whose lease ran out without a settlement means
 * the deciding process died; the next `decide` settles it as interrupted and never runs the body again.
 */
export type ApprovalState = 'pending' | 'claimed' | 'settled'

/** The human's answer, as `decide` received it. */
export interface ApprovalAnswer {
  readonly approved: boolean
  readonly reason?: string
  /** Who decided, as the host names them. */
  readonly decidedBy?: string
}

/** How a decided approval's call ended, stored so a second `decide` returns it instead of running anything. */
export interface SettledApprovalOutcome {
  readonly ok: boolean
  /** The success's canonical value. */
  readonly value?: JsonValue
  /** What the model is shown (content parts as JSON). */
  readonly content: readonly JsonValue[]
  readonly error?: ToolErrorInfo
  readonly durationMs: number
  readonly metadata?: JsonObject
}

/** One deferred approval, as every store keeps it. Everything is JSON; times are milliseconds since the epoch. */
export interface ApprovalRecord {
  /** Unique across stores and processes. */
  readonly approvalId: string
  /** The model's call id. */
  readonly callId: string
  readonly toolName: string
  readonly agentId?: string
  /** The `run_code` call a sub-call belongs to. */
  readonly parentId?: string
  /** The validated, frozen arguments the approver saw. */
  readonly arguments: JsonObject
  /** Every reason given for asking, in order. */
  readonly reasons: readonly string[]
  readonly createdAt: number
  readonly expiresAt: number
  readonly state: ApprovalState
  /** Set when claimed: the answer being carried out. */
  readonly answer?: ApprovalAnswer
  /** Set when claimed: an opaque token naming the claimer; `settle` must present it. */
  readonly claimToken?: string
  readonly claimedAt?: number
  /** A claim older than this (ms since the epoch) without a settlement was abandoned. */
  readonly leaseUntil?: number
  /** Set when settled. */
  readonly outcome?: SettledApprovalOutcome
  readonly settledAt?: number
}

/** What `pendingApprovals(filter)` and a store's `listApprovals` narrow by; every field is optional and they AND. */
export interface ApprovalFilter {
  readonly agentId?: string
  readonly toolName?: string
  /** Default `pending`. */
  readonly state?: ApprovalState
  /** Only those created at or after this time. */
  readonly createdAfter?: number
  /** Only those whose `expiresAt` is after this time (`pendingApprovals` passes now: expired ones are not listed). */
  readonly expiresAfter?: number
  /** At most this many. Always oldest first: by `createdAt`, ties by `approvalId`. @default no limit */
  readonly limit?: number
}

/** What `readSessionLog` narrows by; the fields AND. */
export interface SessionRecordFilter {
  /** The call's id (a sub-call's own id, not its parent's). */
  readonly id?: string
  /** Only the records of a `run_code` program's sub-calls. */
  readonly parentId?: string
  readonly type?: SessionLogRecord['type']
}

/** The claim `decide` asks the store to make: atomic, first one wins. */
export interface ApprovalClaim {
  readonly approvalId: string
  readonly answer: ApprovalAnswer
  readonly claimToken: string
  readonly at: number
  readonly leaseUntil: number
}

/**
 * The answer to a claim: `claimed` (this caller now owns the approval and must settle it), or the record as it is
 * (already claimed by someone whose lease still runs, already settled, or unknown as `undefined`).
 */
export type ClaimResult =
  | {
      readonly status: 'claimed'
      readonly record: ApprovalRecord
      /** True when the approval was taken over from a claimer whose lease ran out: settle it, never run it. */
      readonly abandoned: boolean
    }
  | { readonly status: 'taken'; readonly record: ApprovalRecord }
  | { readonly status: 'unknown' }

/**
 * The one durable store behind deferred approvals and the session log. A claim must be atomic across processes:
 * of any number of concurrent `claimApproval` calls for one pending approval (or one whose lease ran out), exactly
 * one gets `claimed`. `settleApproval` writes the outcome only while `claimToken` still owns the claim, and returns
 * whether it did. `createMemoryStore()` is the in-process reference; `@qilin-tools/store` ships PostgreSQL (`pg`)
 * and PGlite. Every method may be called concurrently; none may throw for a well-formed call except on I/O failure.
 */
export interface ToolStore extends SessionLog {
  append(record: SessionLogRecord): Promise<void>
  /** The session log's records as appended, oldest first (append order), narrowed by `filter`. */
  readSessionLog(filter?: SessionRecordFilter): Promise<readonly SessionLogRecord[]>
  /** Records a new pending approval. A second record with the same `approvalId` rejects (nothing is overwritten). */
  putApproval(record: ApprovalRecord): Promise<void>
  getApproval(approvalId: string): Promise<ApprovalRecord | undefined>
  listApprovals(filter?: ApprovalFilter): Promise<readonly ApprovalRecord[]>
  /**
   * Claims a `pending` approval, or a `claimed` one whose `leaseUntil` is before `claim.at` (its claimer died: the
   * caller then settles it as interrupted; the answer stored is the new one). A settled approval, or a claim whose
   * lease still runs, answers `taken` with the record as it is; an id no record has, `unknown`.
   */
  claimApproval(claim: ApprovalClaim): Promise<ClaimResult>
  /**
   * Writes the outcome and moves the approval to `settled`, only while `claimToken` owns the claim; false (and
   * nothing written) for any other token, an unclaimed or already settled approval, or an unknown id.
   */
  settleApproval(
    approvalId: string,
    claimToken: string,
    outcome: SettledApprovalOutcome,
    settledAt: number,
  ): Promise<boolean>
  /** Closes connections; the store is unusable afterwards. */
  close(): Promise<void>
}
