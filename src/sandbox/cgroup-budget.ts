import { mkdirSync, readdirSync, readFileSync, rmdirSync } from 'node:fs'
import { join } from 'node:path'

/** A cgroup made for one sandbox: its processes are counted and capped together, whatever they start. */
export interface CgroupBudget {
  /** Write a pid here to put that process (and everything it starts) under the budget; lists every process in it. */
  readonly procsFile: string
  /**
   * Every cgroup the budget made, `procsFile` first: one per hierarchy (cgroup v1 mounts each controller apart,
   * v2 holds them all in one). A process joins the budget once its pid is written to each.
   */
  readonly procsFiles: readonly string[]
  /** Removes the cgroups once their processes are gone (retries briefly while they are reaped). */
  release(): void
}

/** The controllers a budget caps. */
export type BudgetController = 'pids' | 'memory'

/** Where a controller is mounted for this process, and which cgroup version it speaks (their file names differ). */
export interface ControllerDirectory {
  readonly directory: string
  readonly version: 1 | 2
}

/** Sets the budget's limits in a fresh cgroup directory; throws when a file cannot be written. */
export type WriteLimits = (directory: string, version: 1 | 2) => void

/** One controller's share of a budget: the controller, and how its limits are written. */
export interface BudgetPart {
  readonly controller: BudgetController
  readonly writeLimits: WriteLimits
}

let sequence = 0

const prefix = 'qilin-sandbox-'

/** A fresh cgroup under this process's own `controller` cgroup with `writeLimits` applied, or why none could be made. */
export function openCgroupBudget(
  controller: BudgetController,
  writeLimits: WriteLimits,
): CgroupBudget | { readonly problem: string } {
  return openSharedBudget([{ controller, writeLimits }])
}

/**
 * One budget under every part's controller: a fresh cgroup per hierarchy the parts live in (so under cgroup v2 a
 * single cgroup holds them all, as a process can be in only one), each with its parts' limits; or why it could not
 * be made, with nothing left behind.
 */
export function openSharedBudget(parts: readonly BudgetPart[]): CgroupBudget | { readonly problem: string } {
  if (parts.length === 0) return { problem: 'no cgroup controller was asked for' }
  const hierarchies = new Map<string, { version: 1 | 2; parts: BudgetPart[] }>()
  for (const part of parts) {
    const parent = controllerDirectory(part.controller)
    if (parent === undefined) return { problem: `no ${part.controller} cgroup controller is mounted` }
    const hierarchy = hierarchies.get(parent.directory)
    if (hierarchy === undefined) hierarchies.set(parent.directory, { version: parent.version, parts: [part] })
    else hierarchy.parts.push(part)
  }
  sequence++
  const made: string[] = []
  for (const [parent, hierarchy] of hierarchies) {
    sweepAbandoned(parent)
    const directory = join(parent, `${prefix}${process.pid}-${sequence}`)
    try {
      mkdirSync(directory)
      made.push(directory)
      for (const part of hierarchy.parts) part.writeLimits(directory, hierarchy.version)
    } catch (error) {
      for (const leftOver of made) removeQuietly(leftOver)
      const controllers = hierarchy.parts.map((part) => part.controller).join(' and ')
      return { problem: `the ${controllers} cgroup at ${parent} is not writable (${(error as Error).message})` }
    }
  }
  const procsFiles = made.map((directory) => join(directory, 'cgroup.procs'))
  return {
    procsFile: procsFiles[0] ?? '',
    procsFiles,
    release: () => {
      for (const directory of made) releaseLater(directory, 50)
    },
  }
}

/** Killed processes leave their cgroup only once reaped; a host that exits first leaves it to `sweepAbandoned`. */
function releaseLater(directory: string, delayMs: number): void {
  if (removeQuietly(directory) || delayMs > 5_000) return
  setTimeout(() => releaseLater(directory, delayMs * 2), delayMs).unref()
}

/** Removes the empty budgets of hosts that are gone (a cgroup with processes left in it refuses removal). */
function sweepAbandoned(parent: string): void {
  let names: string[]
  try {
    names = readdirSync(parent).filter((name) => name.startsWith(prefix))
  } catch {
    return
  }
  for (const name of names) {
    const owner = Number(name.slice(prefix.length).split('-')[0])
    if (owner === process.pid || isAlive(owner)) continue
    removeQuietly(join(parent, name))
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function removeQuietly(directory: string): boolean {
  try {
    rmdirSync(directory)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT'
  }
}

/**
 * The directory of this process's own cgroup for `controller`: cgroup v1's hierarchy of that controller, else the
 * unified (v2) one when the controller is enabled for its children there.
 */
export function controllerDirectory(controller: BudgetController): ControllerDirectory | undefined {
  let mounts: string
  let memberships: string
  try {
    mounts = readFileSync('/proc/self/mountinfo', 'utf8')
    memberships = readFileSync('/proc/self/cgroup', 'utf8')
  } catch {
    return undefined
  }
  const ownPath = (hierarchy: (controllers: string) => boolean) =>
    memberships
      .split('\n')
      .map((line) => line.split(':'))
      .find((fields) => fields.length >= 3 && hierarchy(fields[1] ?? ''))
      ?.slice(2)
      .join(':')
  const mountLines = mounts.split('\n').map((line) => {
    const [mountFields = '', superFields = ''] = line.split(' - ')
    const [type, , options = ''] = superFields.split(' ')
    return { mountPoint: mountFields.split(' ')[4], type, options: options.split(',') }
  })
  for (const { mountPoint, type, options } of mountLines) {
    if (mountPoint === undefined || type !== 'cgroup' || !options.includes(controller)) continue
    const path = ownPath((controllers) => controllers.split(',').includes(controller))
    if (path !== undefined) return { directory: join(mountPoint, path), version: 1 }
  }
  for (const { mountPoint, type } of mountLines) {
    if (mountPoint === undefined || type !== 'cgroup2') continue
    const path = ownPath((controllers) => controllers === '')
    if (path === undefined) continue
    try {
      const enabled = readFileSync(join(mountPoint, path, 'cgroup.subtree_control'), 'utf8')
        .trim()
        .split(/\s+/)
      if (enabled.includes(controller)) return { directory: join(mountPoint, path), version: 2 }
    } catch {}
  }
  return undefined
}
