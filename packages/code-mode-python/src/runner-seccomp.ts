import { seccompTemplate } from '@qilin-tools/sandbox/internal/seccomp-filter.js'

/** The two profiles a runner loads: `networked-program` only for an approved escalated run granted the network. */
export type RunnerSeccompProfile = 'program' | 'networked-program'

/** What the runner config carries for the seccomp layer (see `apply_seccomp` in runner-confinement.py). */
export interface RunnerSeccomp {
  /** The profile's BPF program, base64. */
  readonly program: string
  /** Instructions whose `k` the runner sets to `os.getpid()` before loading the program. */
  readonly ownPidSlots: readonly number[]
}

const cached = new Map<RunnerSeccompProfile, RunnerSeccomp>()

/**
 * The runner's filter as a template: its pid is known only inside the runner (bubblewrap gives it a pid
 * namespace), so the runner fills in the slots itself. Sending the slots saves a round trip before every run.
 */
export function runnerSeccomp(profile: RunnerSeccompProfile): RunnerSeccomp {
  let found = cached.get(profile)
  if (found === undefined) {
    const template = seccompTemplate(profile)
    found = { program: template.program.toString('base64'), ownPidSlots: [...template.ownPidSlots] }
    cached.set(profile, found)
  }
  return found
}
