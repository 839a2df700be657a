import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type BudgetPart, type CgroupBudget, openCgroupBudget } from './cgroup-budget.js'

/**
 * A pids cgroup that caps how many processes a sandbox may hold at once. Needed only under root: the kernel does
 * not enforce RLIMIT_NPROC for uid 0, even inside a user namespace, so a fork bomb would otherwise be unbounded.
 */
export type ProcessBudget = CgroupBudget

/** Whether this host needs a budget: RLIMIT_NPROC holds for every uid but root. */
export function needsProcessBudget(): boolean {
  return process.getuid?.() === 0
}

/** The pids part of a budget of at most `maxProcesses`, for a cgroup shared with others. */
export function processPart(maxProcesses: number): BudgetPart {
  return {
    controller: 'pids',
    writeLimits: (directory) => writeFileSync(join(directory, 'pids.max'), String(maxProcesses)),
  }
}

/** A fresh pids cgroup of at most `maxProcesses`, or why none could be made here. */
export function openProcessBudget(maxProcesses: number): ProcessBudget | { readonly problem: string } {
  const part = processPart(maxProcesses)
  return openCgroupBudget(part.controller, part.writeLimits)
}
