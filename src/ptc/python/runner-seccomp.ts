import { seccompTemplate } from '../../sandbox/seccomp-filter.js'

/** What the runner config carries for the seccomp layer (see `apply_seccomp` in runner-confinement.py). */
export interface RunnerSeccomp {
  /** The `program` profile's BPF program, base64. */
  readonly program: string
  /** Instructions whose `k` the runner sets to `os.getpid()` before loading the program. */
  readonly ownPidSlots: readonly number[]
}

let cached: RunnerSeccomp | undefined

/**
 * The runner's filter as a template: its pid is known only inside the runner (bubblewrap gives it a pid
 * namespace), so the runner fills in the slots itself. Sending the slots saves a round trip before every run.
 */
export function runnerSeccomp(): RunnerSeccomp {
  if (cached === undefined) {
    const template = seccompTemplate('program')
    cached = { program: template.program.toString('base64'), ownPidSlots: [...template.ownPidSlots] }
  }
  return cached
}
