/**
 * What an approved `run_code` with `sandbox_permissions: "require_escalated"` gets on top of the default sandbox,
 * for that run only: its `bash` sub-calls and the Python runtime's own sandbox read it.
 */
export interface SandboxEscalation {
  /** Opens the network (the default sandbox has only its own loopback). */
  readonly network?: boolean
  /** Absolute host paths writable besides the workspace. */
  readonly writablePaths?: readonly string[]
}

/** The grant in words, for the `run_code` schema: `network access and write access to /srv/cache`. */
export function describeEscalation(escalation: SandboxEscalation): string {
  const grants: string[] = []
  if (escalation.network === true) grants.push('network access')
  const paths = escalation.writablePaths ?? []
  if (paths.length > 0) grants.push(`write access to ${paths.join(', ')}`)
  return grants.length === 0 ? 'nothing beyond the default sandbox' : grants.join(' and ')
}
