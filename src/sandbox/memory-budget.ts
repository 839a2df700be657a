import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type BudgetPart, type CgroupBudget, openCgroupBudget } from './cgroup-budget.js'

/**
 * A memory cgroup that caps the sum of what a sandbox may pin: its processes' pages, its tmpfs files, and the
 * kernel memory it causes (inodes and dentries, page tables, socket buffers), which the kernel charges to the
 * cgroup of the process that caused it and no rlimit counts. Swap is capped with it, so nothing is pushed out
 * to swap past the cap. Past the cap the kernel reclaims, then refuses the allocation or kills inside the cgroup.
 */
export interface MemoryBudget extends CgroupBudget, MemoryWatch {}

/** What a memory cap reports once processes ran under it. */
export interface MemoryWatch {
  readonly maxBytes: number
  /** Whether the kernel has killed a process under the budget for going past it. */
  killedForMemory(): boolean
}

/** The memory part of a budget of at most `maxBytes`, and what it will report, for a cgroup shared with others. */
export function memoryPart(maxBytes: number): { readonly part: BudgetPart; readonly watch: MemoryWatch } {
  const limit = String(Math.floor(maxBytes))
  let events = ''
  const writeLimits = (directory: string, version: 1 | 2) => {
    // v1 counts kills in memory.oom_control, v2 in memory.events; both as an `oom_kill N` line.
    events = join(directory, version === 2 ? 'memory.events' : 'memory.oom_control')
    if (version === 2) {
      writeFileSync(join(directory, 'memory.max'), limit)
      if (existsSync(join(directory, 'memory.swap.max'))) writeFileSync(join(directory, 'memory.swap.max'), '0')
      return
    }
    writeFileSync(join(directory, 'memory.limit_in_bytes'), limit)
    // Present only where swap accounting is on; it must not be below memory.limit_in_bytes.
    const withSwap = join(directory, 'memory.memsw.limit_in_bytes')
    if (existsSync(withSwap)) writeFileSync(withSwap, limit)
  }
  return {
    part: { controller: 'memory', writeLimits },
    watch: { maxBytes, killedForMemory: () => events !== '' && killCount(events) > 0 },
  }
}

/** A fresh memory cgroup of at most `maxBytes`, or why none could be made here (usually: not root, no delegation). */
export function openMemoryBudget(maxBytes: number): MemoryBudget | { readonly problem: string } {
  const { part, watch } = memoryPart(maxBytes)
  const budget = openCgroupBudget(part.controller, part.writeLimits)
  if ('problem' in budget) return budget
  return { ...budget, maxBytes, killedForMemory: watch.killedForMemory }
}

function killCount(eventsFile: string): number {
  try {
    return Number(/^oom_kill (\d+)$/m.exec(readFileSync(eventsFile, 'utf8'))?.[1] ?? 0)
  } catch {
    return 0
  }
}

let probed: { readonly problem: string | undefined } | undefined

/** Why this host cannot give a sandbox a memory budget, or undefined when it can (asked once). */
export function memoryBudgetProblem(): string | undefined {
  if (probed === undefined) {
    const budget = openMemoryBudget(64 * 1024 * 1024)
    if ('problem' in budget) probed = { problem: budget.problem }
    else {
      budget.release()
      probed = { problem: undefined }
    }
  }
  return probed.problem
}
