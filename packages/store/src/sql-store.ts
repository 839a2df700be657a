import type {
  ApprovalClaim,
  ApprovalFilter,
  ApprovalRecord,
  ClaimResult,
  SessionRecordFilter,
  SettledApprovalOutcome,
  ToolStore,
} from 'qilin-tools/internal/approvals/approval-store.js'
import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import type { SessionLogRecord } from 'qilin-tools/internal/session-log/session-log.js'
import { approvalOfRecord, approvalsOfListing } from './approval-row.js'
import { toColumnText } from './column-text.js'
import { DEFAULT_MAX_RECORD_BYTES, recordJson } from './record-json.js'
import type { SqlParameter, SqlPort, SqlResult } from './sql-port.js'
import { StoreError, StoreErrorCode } from './store-error.js'

/** Options every database store takes. */
export interface DatabaseStoreOptions {
  /**
   * The largest record accepted, in UTF-8 bytes of JSON (an approval's arguments, reasons and outcome together, or
   * one session-log record); a larger one is refused with `STORE_RECORD_TOO_LARGE`, never cut.
   * @default 16777216 (16 MiB)
   */
  readonly maxRecordBytes?: number
}

const column = (value: string | undefined): string | null => (value === undefined ? null : toColumnText(value))

function time(value: number, field: string): number {
  if (!Number.isSafeInteger(value)) {
    throw new InvalidArgumentError(`${field} must be whole milliseconds since the epoch, got ${String(value)}`)
  }
  return value
}

/** As the memory store reads a limit: none for undefined or Infinity, 0 for anything not above 0, else whole. */
function limitOf(limit: number | undefined): number | null {
  if (limit === undefined || limit === Number.POSITIVE_INFINITY) return null
  return limit > 0 ? Math.floor(limit) : 0
}

/**
 * The one SQL implementation of `ToolStore`, over any driver that implements `SqlPort` (migrated and guarded by
 * `openSqlStore`). Every value travels as a statement parameter. A claim is one `UPDATE` whose `WHERE` holds only
 * for a pending approval or a lapsed claim: the row lock makes concurrent claimers queue, and each one after the
 * winner re-reads the row and no longer matches, so exactly one wins, across any number of processes.
 */
export function createSqlStore(port: SqlPort, options: DatabaseStoreOptions = {}): ToolStore {
  const { wholeListingBytes } = port
  const maxBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES
  let closed: Promise<void> | undefined

  const query = (text: string, parameters: readonly SqlParameter[] = []): Promise<SqlResult> => {
    if (closed !== undefined) return Promise.reject(new StoreError(StoreErrorCode.CLOSED, 'the store is closed'))
    return port.query(text, parameters)
  }

  const getApproval = async (approvalId: string): Promise<ApprovalRecord | undefined> => {
    const { rows } = await query('SELECT record FROM qilin_approvals WHERE approval_id = $1', [
      toColumnText(approvalId),
    ])
    return rows[0] === undefined ? undefined : approvalOfRecord(rows[0].record)
  }

  return {
    async append(record) {
      const [json] = recordJson([record], maxBytes, `session-log record ${record.type} of call ${record.id}`)
      await query(
        'INSERT INTO qilin_session_log (type, call_id, parent_id, agent_id, at, record) VALUES ($1, $2, $3, $4, $5, $6)',
        [
          record.type,
          toColumnText(record.id),
          column(record.parentId),
          column(record.agentId),
          time(record.at, 'at'),
          json!,
        ],
      )
    },

    async putApproval(record) {
      const [argumentsJson, reasonsJson, answerJson, outcomeJson] = recordJson(
        [record.arguments, record.reasons, record.answer ?? null, record.outcome ?? null],
        maxBytes,
        `approval ${record.approvalId}`,
      )
      const { affectedRows } = await query(
        `INSERT INTO qilin_approvals (approval_id, call_id, tool_name, agent_id, parent_id, arguments, reasons,
          created_at, expires_at, state, answer, claim_token, claimed_at, lease_until, outcome, settled_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
        ON CONFLICT (approval_id) DO NOTHING`,
        [
          toColumnText(record.approvalId),
          toColumnText(record.callId),
          toColumnText(record.toolName),
          column(record.agentId),
          column(record.parentId),
          argumentsJson!,
          reasonsJson!,
          time(record.createdAt, 'createdAt'),
          time(record.expiresAt, 'expiresAt'),
          record.state,
          record.answer === undefined ? null : answerJson!,
          column(record.claimToken),
          record.claimedAt === undefined ? null : time(record.claimedAt, 'claimedAt'),
          record.leaseUntil === undefined ? null : time(record.leaseUntil, 'leaseUntil'),
          record.outcome === undefined ? null : outcomeJson!,
          record.settledAt === undefined ? null : time(record.settledAt, 'settledAt'),
        ],
      )
      if (affectedRows === 0) {
        throw new StoreError(
          StoreErrorCode.DUPLICATE_APPROVAL,
          `the store already holds an approval with id ${JSON.stringify(record.approvalId)}`,
        )
      }
    },

    getApproval,

    async listApprovals(filter: ApprovalFilter = {}) {
      const parameters: SqlParameter[] = [filter.state ?? 'pending']
      const conditions = ['state = $1']
      // Only placeholders are composed here; every value is a parameter.
      if (filter.agentId !== undefined) conditions.push(`agent_id = $${parameters.push(toColumnText(filter.agentId))}`)
      if (filter.toolName !== undefined)
        conditions.push(`tool_name = $${parameters.push(toColumnText(filter.toolName))}`)
      if (filter.createdAfter !== undefined)
        conditions.push(`created_at >= $${parameters.push(time(filter.createdAfter, 'createdAfter'))}`)
      if (filter.expiresAfter !== undefined)
        conditions.push(`expires_at > $${parameters.push(time(filter.expiresAfter, 'expiresAfter'))}`)
      const limit = limitOf(filter.limit)
      const from = `FROM qilin_approvals WHERE ${conditions.join(' AND ')}`
      const order = 'ORDER BY created_at, approval_id COLLATE "C"'
      // With a limit, the subqueries below take the first `limit` in listing order; without one, order is left to
      // the aggregate (a sorted subquery would sort the records twice).
      const limited = limit === null ? '' : `${order} LIMIT $${parameters.push(limit)}`
      if (wholeListingBytes > 0) {
        // The whole listing as one JSON array text, built only when its records (and the commas between them) are
        // at most wholeListingBytes; past that, `records` is null and the rows come one by one below.
        const { rows } = await query(
          `WITH size AS (SELECT sum(bytes + 1) AS bytes FROM (SELECT octet_length(record) AS bytes ${from} ${limited}) sized)
          SELECT bytes, (
            SELECT '[' || string_agg(record, ',' ${order}) || ']'
            FROM (SELECT record, created_at, approval_id ${from} ${limited}) listed
            WHERE size.bytes <= $${parameters.length + 1}
          ) AS records FROM size`,
          [...parameters, wholeListingBytes],
        )
        const [whole] = rows
        if (typeof whole?.records === 'string') return approvalsOfListing(whole.records)
        if (whole?.bytes === null) return []
      }
      const { rows } = await query(`SELECT record ${from} ${limited || order}`, parameters)
      return rows.map((row) => approvalOfRecord(row.record))
    },

    async claimApproval(claim: ApprovalClaim): Promise<ClaimResult> {
      const [answerJson] = recordJson([claim.answer], maxBytes, `the answer to approval ${claim.approvalId}`)
      const { rows } = await query(
        `UPDATE qilin_approvals
        SET state = 'claimed', answer = $2, claim_token = $3, claimed_at = $4, lease_until = $5, claims = claims + 1
        WHERE approval_id = $1 AND (state = 'pending' OR (state = 'claimed' AND lease_until < $4))
        RETURNING record, claims`,
        [
          toColumnText(claim.approvalId),
          answerJson!,
          toColumnText(claim.claimToken),
          time(claim.at, 'at'),
          time(claim.leaseUntil, 'leaseUntil'),
        ],
      )
      const won = rows[0]
      if (won !== undefined) {
        return { status: 'claimed', record: approvalOfRecord(won.record), abandoned: Number(won.claims) > 1 }
      }
      const record = await getApproval(claim.approvalId)
      return record === undefined ? { status: 'unknown' } : { status: 'taken', record }
    },

    async settleApproval(approvalId: string, claimToken: string, outcome: SettledApprovalOutcome, settledAt: number) {
      const [outcomeJson] = recordJson([outcome], maxBytes, `the outcome of approval ${approvalId}`)
      const { affectedRows } = await query(
        `UPDATE qilin_approvals SET state = 'settled', outcome = $3, settled_at = $4
        WHERE approval_id = $1 AND claim_token = $2 AND state = 'claimed'`,
        [toColumnText(approvalId), toColumnText(claimToken), outcomeJson!, time(settledAt, 'settledAt')],
      )
      return affectedRows === 1
    },

    async readSessionLog(filter: SessionRecordFilter = {}) {
      const parameters: SqlParameter[] = []
      const conditions: string[] = []
      if (filter.id !== undefined) conditions.push(`call_id = $${parameters.push(toColumnText(filter.id))}`)
      if (filter.parentId !== undefined)
        conditions.push(`parent_id = $${parameters.push(toColumnText(filter.parentId))}`)
      if (filter.type !== undefined) conditions.push(`type = $${parameters.push(filter.type)}`)
      const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`
      const { rows } = await query(
        `SELECT record::text AS record FROM qilin_session_log ${where} ORDER BY seq`,
        parameters,
      )
      return rows.map((row) => JSON.parse(String(row.record)) as SessionLogRecord)
    },

    close() {
      closed ??= port.close()
      return closed
    },
  }
}
