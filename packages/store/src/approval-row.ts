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

const FIELDS = `approval_id, call_id, tool_name, agent_id, parent_id, arguments, reasons, created_at, expires_at,
  state, answer, claim_token, claimed_at, lease_until, outcome, settled_at`

function approvalOf(fields: ApprovalFields): ApprovalRecord {
  const [approvalId, callId, toolName, agentId, parentId, args, reasons, createdAt, expiresAt, state, ...claim] = fields
  const [answer, claimToken, claimedAt, leaseUntil, outcome, settledAt] = claim
  return {
    approvalId: fromColumnText(approvalId),
    callId: fromColumnText(callId),
    toolName: fromColumnText(toolName),
    ...(agentId !== null && { agentId: fromColumnText(agentId) }),
    ...(parentId !== null && { parentId: fromColumnText(parentId) }),
    arguments: args,
    reasons,
    createdAt,
    expiresAt,
    state,
    ...(answer !== null && { answer }),
    ...(claimToken !== null && { claimToken: fromColumnText(claimToken) }),
    ...(claimedAt !== null && { claimedAt }),
    ...(leaseUntil !== null && { leaseUntil }),
    ...(outcome !== null && { outcome }),
    ...(settledAt !== null && { settledAt }),
  }
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
