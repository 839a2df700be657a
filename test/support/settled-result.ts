import type { CallOutcome } from 'qilin-tools/internal/pipeline/call.js'

/**
 * The success a test expects, narrowed, so it reads `value` only where the type has one. A failure (or no result at
 * all) throws with its code and message, which says more than a bare `undefined` would.
 */
export function expectSuccess<Outcome extends CallOutcome>(
  outcome: Outcome | undefined,
): Extract<Outcome, { ok: true }> {
  if (outcome === undefined) throw new Error('expected a successful call, got no result')
  if (!outcome.ok) throw new Error(`expected a successful call, got ${outcome.error.code}: ${outcome.error.message}`)
  return outcome as Extract<Outcome, { ok: true }>
}

/** The failure a test expects, narrowed, so it reads `error` only where the type has one. */
export function expectFailure<Outcome extends CallOutcome>(
  outcome: Outcome | undefined,
): Extract<Outcome, { ok: false }> {
  if (outcome === undefined) throw new Error('expected a failed call, got no result')
  if (outcome.ok) throw new Error(`expected a failed call, got the value ${JSON.stringify(outcome.value)}`)
  return outcome as Extract<Outcome, { ok: false }>
}
