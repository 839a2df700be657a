import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type CgroupBudget, openCgroupBudget } from './cgroup-budget.js'

/**
 * A pids cgroup that caps how many processes a sandbox may hold at once. Needed only under root: the kernel does
 * not enforce RLIMIT_NPROC for uid 0, even inside a user namespace, so a fork bomb would otherwise be unbounded.
 */
export type ProcessBudget = CgroupBudget

/** Whether this host needs a budget: RLIMIT_NPROC holds for every uid but root. */
export function needsProcessBudget(): boolean {
  return process.getuid?.() === 0
}

/** A fresh pids cgroup of at most `maxProcesses`, or why none could be made here. */
export function openProcessBudget(maxProcesses: number): ProcessBudget | { readonly problem: string } {
  return openCgroupBudget('pids', (directory) => writeFileSync(join(directory, 'pids.max'), String(maxProcesses)))
}
