import type { ApprovalRecord, ApprovalState } from 'qilin-tools/internal/approvals/approval-store.js'
import { fromColumnText } from './column-text.js'
import type { SqlRow } from './sql-port.js'

/** The columns every approval read selects, JSON as text so the store parses it whatever the driver's type setup. */
export const APPROVAL_COLUMNS = `approval_id, call_id, tool_name, agent_id, parent_id, arguments::text AS arguments,
  reasons::text AS reasons, created_at, expires_at, state, answer::text AS answer, claim_token, claimed_at,
  lease_until, outcome::text AS outcome, settled_at`

const text = (value: unknown): string => fromColumnText(String(value))
const present = (value: unknown): boolean => value !== null && value !== undefined

/** One row of `qilin_approvals` as the record it stores. Optional fields absent in the row are absent here too. */
export function approvalFromRow(row: SqlRow): ApprovalRecord {
  return {
    approvalId: text(row.approval_id),
    callId: text(row.call_id),
    toolName: text(row.tool_name),
    ...(present(row.agent_id) && { agentId: text(row.agent_id) }),
    ...(present(row.parent_id) && { parentId: text(row.parent_id) }),
    arguments: JSON.parse(String(row.arguments)),
    reasons: JSON.parse(String(row.reasons)),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    state: String(row.state) as ApprovalState,
    ...(present(row.answer) && { answer: JSON.parse(String(row.answer)) }),
    ...(present(row.claim_token) && { claimToken: text(row.claim_token) }),
    ...(present(row.claimed_at) && { claimedAt: Number(row.claimed_at) }),
    ...(present(row.lease_until) && { leaseUntil: Number(row.lease_until) }),
    ...(present(row.outcome) && { outcome: JSON.parse(String(row.outcome)) }),
    ...(present(row.settled_at) && { settledAt: Number(row.settled_at) }),
  }
}
