/** A signal that aborts when either does; the caller's signal can never be dropped by a wrapper. */
export function fuseSignals(replacement: AbortSignal, caller: AbortSignal): AbortSignal {
  if (replacement === caller) return caller
  if (caller.aborted) return caller
  if (replacement.aborted) return replacement
  return AbortSignal.any([replacement, caller])
}
