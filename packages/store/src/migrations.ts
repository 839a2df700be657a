/** One schema step. Versions count up from 1; a released step is never edited, only followed by a new one. */
export interface Migration {
  readonly version: number
  readonly statements: readonly string[]
}

/**
 * Times are milliseconds since the epoch (`bigint`); record payloads are `json`, which keeps the text as written
 * (key order, `\u0000` escapes), where `jsonb` would reorder keys and refuse `\u0000`. `claims` counts successful
 * claims: a claim after the first took over an abandoned one. Approvals list oldest first, ties by `approval_id` in
 * byte order (`COLLATE "C"`, whatever the database's collation); the session log reads back by `seq`, append order.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE qilin_approvals (
        approval_id text PRIMARY KEY,
        call_id text NOT NULL,
        tool_name text NOT NULL,
        agent_id text,
        parent_id text,
        arguments json NOT NULL,
        reasons json NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'claimed', 'settled')),
        answer json,
        claim_token text,
        claimed_at bigint,
        lease_until bigint,
        claims integer NOT NULL DEFAULT 0,
        outcome json,
        settled_at bigint
      )`,
      'CREATE INDEX qilin_approvals_by_state ON qilin_approvals (state, created_at, approval_id COLLATE "C")',
      'CREATE INDEX qilin_approvals_by_agent ON qilin_approvals (agent_id, state, created_at, approval_id COLLATE "C")',
      'CREATE INDEX qilin_approvals_by_tool ON qilin_approvals (tool_name, state, created_at, approval_id COLLATE "C")',
      `CREATE TABLE qilin_session_log (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        type text NOT NULL,
        call_id text NOT NULL,
        parent_id text,
        agent_id text,
        at bigint NOT NULL,
        record json NOT NULL
      )`,
      'CREATE INDEX qilin_session_log_by_call ON qilin_session_log (call_id, seq)',
      'CREATE INDEX qilin_session_log_by_parent ON qilin_session_log (parent_id, seq) WHERE parent_id IS NOT NULL',
    ],
  },
  // Each approval also as one JSON array text, the fields in the order of approval-row.ts: every read takes that
  // one column, so a driver decodes one field a row, and a listing up to 16 MiB comes back as one text
  // (bench/approvals.bench.ts). A trigger writes it, so every writer keeps it true, one still on release 1 included.
  {
    version: 2,
    statements: [
      'ALTER TABLE qilin_approvals ADD COLUMN record text',
      `CREATE OR REPLACE FUNCTION qilin_approval_record() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.record := json_build_array(NEW.approval_id, NEW.call_id, NEW.tool_name, NEW.agent_id, NEW.parent_id,
          NEW.arguments, NEW.reasons, NEW.created_at, NEW.expires_at, NEW.state, NEW.answer, NEW.claim_token,
          NEW.claimed_at, NEW.lease_until, NEW.outcome, NEW.settled_at)::text;
        RETURN NEW;
      END
      $$`,
      `CREATE TRIGGER qilin_approval_record BEFORE INSERT OR UPDATE ON qilin_approvals
        FOR EACH ROW EXECUTE FUNCTION qilin_approval_record()`,
      // Fills the column for the approvals already stored (the trigger computes it).
      'UPDATE qilin_approvals SET record = NULL',
      'ALTER TABLE qilin_approvals ALTER COLUMN record SET NOT NULL',
    ],
  },
]
