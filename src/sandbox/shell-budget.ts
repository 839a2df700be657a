import { type BudgetPart, type CgroupBudget, openSharedBudget } from './cgroup-budget.js'
import { type MemoryWatch, memoryBudgetProblem, memoryPart } from './memory-budget.js'
import { needsProcessBudget, processPart } from './process-budget.js'

/** The cgroups one shell command runs under, and its memory cap when it has one. */
export interface ShellBudget extends CgroupBudget {
  readonly memory: MemoryWatch | undefined
}

/**
 * The budget of one shell command: a process cap where the host runs as root (the kernel enforces RLIMIT_NPROC for
 * every other uid, so only there is it needed), and a memory cap (its pages, its tmpfs files and the kernel memory
 * they hold) wherever this host can make a memory cgroup. Undefined when it needs neither and can make no memory cap;
 * `problem` only when the process cap it needs cannot be made.
 */
export function openShellBudget(
  maxProcesses: number,
  maxMemoryBytes: number,
): ShellBudget | undefined | { readonly problem: string } {
  const needsProcesses = needsProcessBudget()
  const processes: BudgetPart[] = needsProcesses ? [processPart(maxProcesses)] : []
  if (memoryBudgetProblem() === undefined) {
    const { part, watch } = memoryPart(maxMemoryBytes)
    const budget = openSharedBudget([...processes, part])
    if (!('problem' in budget)) return { ...budget, memory: watch }
  }
  // As for Python: without a memory cgroup the per-process limits and the sized tmpfs mounts hold alone.
  if (!needsProcesses) return undefined
  const budget = openSharedBudget(processes)
  return 'problem' in budget ? budget : { ...budget, memory: undefined }
}
