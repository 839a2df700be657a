import type { ApprovalRecord, ApprovalState } from 'qilin-tools/internal/approvals/approval-store.js'
import { fromColumnText } from './column-text.js'

/** A record's fields in the order its stored JSON array holds them; optional fields are null when absent. */
type ApprovalFields = readonly [
  approvalId: string,
  callId: string,
  toolName: string,
  agentId: string | null,
  parentId: string | null,
  arguments: ApprovalRecord['arguments'],
  reasons: ApprovalRecord['reasons'],
  createdAt: number,
  expiresAt: number,
  state: ApprovalState,
  answer: NonNullable<ApprovalRecord['answer']> | null,
  claimToken: string | null,
  claimedAt: number | null,
  leaseUntil: number | null,
  outcome: NonNullable<ApprovalRecord['outcome']> | null,
  settledAt: number | null,
]

type Mutable<Value> = { -readonly [Key in keyof Value]: Value[Key] }

// Built field by field: spreading each optional field in took a third of the mapping's time (10,000 rows, pg).
function approvalOf(fields: ApprovalFields): ApprovalRecord {
  const record: Mutable<ApprovalRecord> = {
    approvalId: fromColumnText(fields[0]),
    callId: fromColumnText(fields[1]),
    toolName: fromColumnText(fields[2]),
  } as Mutable<ApprovalRecord>
  if (fields[3] !== null) record.agentId = fromColumnText(fields[3])
  if (fields[4] !== null) record.parentId = fromColumnText(fields[4])
  record.arguments = fields[5]
  record.reasons = fields[6]
  record.createdAt = fields[7]
  record.expiresAt = fields[8]
  record.state = fields[9]
  if (fields[10] !== null) record.answer = fields[10]
  if (fields[11] !== null) record.claimToken = fromColumnText(fields[11])
  if (fields[12] !== null) record.claimedAt = fields[12]
  if (fields[13] !== null) record.leaseUntil = fields[13]
  if (fields[14] !== null) record.outcome = fields[14]
  if (fields[15] !== null) record.settledAt = fields[15]
  return record
}

/**
 * An approval as it is read back: the `record` column, which migration 2's trigger writes on every insert and
 * update as `json_build_array` of the fields in the order above. A driver then decodes one text a row instead of
 * sixteen fields (PGlite pays per field, `pg` per field and per JSON column); the `json` type inside keeps the stored
 * text as written, and times are safe integers, so they survive as numbers.
 */
export function approvalOfRecord(record: unknown): ApprovalRecord {
  return approvalOf(JSON.parse(String(record)) as ApprovalFields)
}

/** The approvals of a whole listing taken as one text: a JSON array of record texts (`listApprovals`). */
export function approvalsOfListing(listing: unknown): ApprovalRecord[] {
  return (JSON.parse(String(listing)) as ApprovalFields[]).map(approvalOf)
}
