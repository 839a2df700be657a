import { ToolRuntimeError } from '../errors/tool-runtime-error.js'
import type { SessionLogRecord } from '../session-log/session-log.js'
import type {
  ApprovalClaim,
  ApprovalFilter,
  ApprovalRecord,
  ClaimResult,
  SessionRecordFilter,
  SettledApprovalOutcome,
  ToolStore,
} from './approval-store.js'

/**
 * Creates a `ToolStore` kept in this process's memory: the reference every other store is held to by the store
 * conformance suite. Nothing survives the process, so a second process cannot decide its approvals; use it for
 * tests, a single long-lived process, or a host that keeps approvals no longer than it runs.
 */
export function createMemoryStore(): ToolStore {
  const approvals = new Map<string, ApprovalRecord>()
  const log: SessionLogRecord[] = []
  let closed = false
  const open = (method: string) => {
    if (closed) throw new ToolRuntimeError(`memory store: ${method} after close()`)
  }
  // Each method answers a promise that rejects rather than throws, as an I/O-backed store's would.
  const answer = async <Value>(method: string, work: () => Value): Promise<Value> => {
    open(method)
    return work()
  }
  return {
    append: (record) =>
      answer('append', () => {
        log.push(frozenCopy(record))
      }),
    readSessionLog: (filter) => answer('readSessionLog', () => log.filter((record) => matchesRecord(record, filter))),
    putApproval: (record) =>
      answer('putApproval', () => {
        if (approvals.has(record.approvalId)) {
          throw new ToolRuntimeError(`putApproval: an approval with id ${JSON.stringify(record.approvalId)} exists`)
        }
        approvals.set(record.approvalId, frozenCopy(record))
      }),
    getApproval: (approvalId) => answer('getApproval', () => approvals.get(approvalId)),
    listApprovals: (filter) => answer('listApprovals', () => listed(approvals, filter)),
    claimApproval: (claim) => answer('claimApproval', () => claimed(approvals, claim)),
    settleApproval: (approvalId, claimToken, outcome, settledAt) =>
      answer('settleApproval', () => settled(approvals, approvalId, claimToken, outcome, settledAt)),
    close: async () => {
      closed = true
    },
  }
}

function listed(approvals: ReadonlyMap<string, ApprovalRecord>, filter: ApprovalFilter = {}): ApprovalRecord[] {
  const state = filter.state ?? 'pending'
  const found: ApprovalRecord[] = []
  for (const record of approvals.values()) {
    if (record.state !== state) continue
    if (filter.agentId !== undefined && record.agentId !== filter.agentId) continue
    if (filter.toolName !== undefined && record.toolName !== filter.toolName) continue
    if (filter.createdAfter !== undefined && record.createdAt < filter.createdAfter) continue
    if (filter.expiresAfter !== undefined && record.expiresAt <= filter.expiresAfter) continue
    found.push(record)
  }
  found.sort(oldestFirst)
  return filter.limit === undefined ? found : found.slice(0, Math.max(0, filter.limit))
}

function oldestFirst(left: ApprovalRecord, right: ApprovalRecord): number {
  if (left.createdAt !== right.createdAt) return left.createdAt - right.createdAt
  return left.approvalId < right.approvalId ? -1 : left.approvalId > right.approvalId ? 1 : 0
}

function claimed(approvals: Map<string, ApprovalRecord>, claim: ApprovalClaim): ClaimResult {
  const record = approvals.get(claim.approvalId)
  if (record === undefined) return { status: 'unknown' }
  const abandoned = record.state === 'claimed' && (record.leaseUntil ?? 0) < claim.at
  if (record.state !== 'pending' && !abandoned) return { status: 'taken', record }
  const next: ApprovalRecord = Object.freeze({
    ...record,
    state: 'claimed',
    answer: frozenCopy(claim.answer),
    claimToken: claim.claimToken,
    claimedAt: claim.at,
    leaseUntil: claim.leaseUntil,
  })
  approvals.set(claim.approvalId, next)
  return { status: 'claimed', record: next, abandoned }
}

function settled(
  approvals: Map<string, ApprovalRecord>,
  approvalId: string,
  claimToken: string,
  outcome: SettledApprovalOutcome,
  settledAt: number,
): boolean {
  const record = approvals.get(approvalId)
  if (record === undefined || record.state !== 'claimed' || record.claimToken !== claimToken) return false
  approvals.set(approvalId, Object.freeze({ ...record, state: 'settled', outcome: frozenCopy(outcome), settledAt }))
  return true
}

function matchesRecord(record: SessionLogRecord, filter: SessionRecordFilter = {}): boolean {
  return (
    (filter.id === undefined || record.id === filter.id) &&
    (filter.parentId === undefined || record.parentId === filter.parentId) &&
    (filter.type === undefined || record.type === filter.type)
  )
}

/** Stored as JSON would store it: nothing the caller keeps can change the store's copy, nor the other way round. */
function frozenCopy<Value>(value: Value): Value {
  return deepFreeze(JSON.parse(JSON.stringify(value)) as Value)
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item)
    Object.freeze(value)
  }
  return value
}
