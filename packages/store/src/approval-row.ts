import type { ApprovalRecord, ApprovalState } from 'qilin-tools/internal/approvals/approval-store.js'
import { fromColumnText } from './column-text.js'
import type { ApprovalReadShape, SqlRow } from './sql-port.js'

/** How approvals are read: the select list every approval read uses, and the record one row of it stands for. */
export interface ApprovalRead {
  readonly select: string
  fromRow(row: SqlRow): ApprovalRecord
}

/** A row's fields in the order both select lists name them; optional fields are null when absent. */
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

const FIELDS = `approval_id, call_id, tool_name, agent_id, parent_id, arguments, reasons, created_at, expires_at,
  state, answer, claim_token, claimed_at, lease_until, outcome, settled_at`

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

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.parse(String(value)))
const time = (value: unknown) => (value === null || value === undefined ? null : Number(value))
const text = (value: unknown) => (value === null || value === undefined ? null : String(value))

/**
 * The two ways a driver may take approvals back (bench/approvals.bench.ts, 10,000 pending): `columns` gives each
 * field its own column with the JSON ones as text, which `pg` decodes quickly; `json` gives the whole record as
 * one JSON array text per row, because PGlite pays per field it decodes and sixteen fields a row cost it twice
 * the time. The `json` type keeps the stored text as written; times are safe integers, so they survive as numbers.
 */
export const approvalReads = {
  columns: {
    select: FIELDS.replace(/\b(arguments|reasons|answer|outcome)\b/g, '$1::text AS $1'),
    fromRow: (row) =>
      approvalOf([
        String(row.approval_id),
        String(row.call_id),
        String(row.tool_name),
        text(row.agent_id),
        text(row.parent_id),
        json(row.arguments),
        json(row.reasons),
        Number(row.created_at),
        Number(row.expires_at),
        String(row.state) as ApprovalState,
        json(row.answer),
        text(row.claim_token),
        time(row.claimed_at),
        time(row.lease_until),
        json(row.outcome),
        time(row.settled_at),
      ]),
  },
  json: {
    select: `json_build_array(${FIELDS})::text AS record`,
    fromRow: (row) => approvalOf(JSON.parse(String(row.record)) as ApprovalFields),
  },
} satisfies Record<ApprovalReadShape, ApprovalRead>
