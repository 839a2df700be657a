import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A pids cgroup that caps how many processes a sandbox may hold at once. Needed only under root: the kernel does
 * not enforce RLIMIT_NPROC for uid 0, even inside a user namespace, so a fork bomb would otherwise be unbounded.
 */
export interface ProcessBudget {
  /** Write a pid here to put that process (and everything it starts) under the budget. */
  readonly procsFile: string
  /** Removes the cgroup once its processes are gone (retries briefly while they are reaped). */
  release(): void
}

let sequence = 0

/** Whether this host needs a budget: RLIMIT_NPROC holds for every uid but root. */
export function needsProcessBudget(): boolean {
  return process.getuid?.() === 0
}

/** A fresh pids cgroup of at most `maxProcesses`, or why none could be made here. */
export function openProcessBudget(maxProcesses: number): ProcessBudget | { readonly problem: string } {
  const parent = pidsCgroupDirectory()
  if (parent === undefined) return { problem: 'no pids cgroup controller is mounted' }
  sweepAbandoned(parent)
  sequence++
  const directory = join(parent, `${prefix}${process.pid}-${sequence}`)
  try {
    mkdirSync(directory)
    writeFileSync(join(directory, 'pids.max'), String(maxProcesses))
  } catch (error) {
    removeQuietly(directory)
    return { problem: `the pids cgroup at ${parent} is not writable (${(error as Error).message})` }
  }
  return {
    procsFile: join(directory, 'cgroup.procs'),
    release: () => releaseLater(directory, 50),
  }
}

const prefix = 'qilin-sandbox-'

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

/** The directory of this process's own pids cgroup: cgroup v1's `pids` hierarchy, else the unified (v2) one. */
function pidsCgroupDirectory(): string | undefined {
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
  for (const line of mounts.split('\n')) {
    const [mountFields = '', superFields = ''] = line.split(' - ')
    const mountPoint = mountFields.split(' ')[4]
    const [type, , options = ''] = superFields.split(' ')
    if (mountPoint === undefined) continue
    if (type === 'cgroup' && options.split(',').includes('pids')) {
      const path = ownPath((controllers) => controllers.split(',').includes('pids'))
      if (path !== undefined) return join(mountPoint, path)
    }
  }
  for (const line of mounts.split('\n')) {
    const [mountFields = '', superFields = ''] = line.split(' - ')
    const mountPoint = mountFields.split(' ')[4]
    if (mountPoint === undefined || !superFields.startsWith('cgroup2 ')) continue
    const path = ownPath((controllers) => controllers === '')
    if (path === undefined) continue
    try {
      if (
        readFileSync(join(mountPoint, path, 'cgroup.subtree_control'), 'utf8')
          .trim()
          .split(/\s+/)
          .includes('pids')
      )
        return join(mountPoint, path)
    } catch {}
  }
  return undefined
}
