import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { descendantsOf, listProcesses } from '@qilin-tools/cli/internal/process-tree.js'

/** Polls `probe` until it returns something other than undefined or false. */
export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = probe()
    if (found !== undefined && found !== false) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
  } catch {
    return ''
  }
}

/** Running, as the process table shows it: a zombie only waits to be reaped and counts as gone. */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat[stat.lastIndexOf(')') + 2] !== 'Z'
  } catch {
    return false
  }
}

/** Every running process whose command line contains `text` (a test's own marker), as `pid args` lines. */
export function processesMatching(text: string): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && running(Number(name)) && commandLine(Number(name)).includes(text))
    .map((name) => `${name} ${commandLine(Number(name))}`)
}

/** Whether `sleep <seconds>` itself runs (the CLI's and bash's own command lines also hold the text). */
export function sleepRuns(seconds: string): boolean {
  return processesMatching(`sleep ${seconds}`).some(
    (line) => line.endsWith(` sleep ${seconds}`) && !line.includes('-c'),
  )
}

/** Whether `pid` reads its stdin: fd 0 is in the interest list of one of its epoll instances. */
export function readsStdin(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some(
      (fd) =>
        readlinkSync(`/proc/${pid}/fd/${fd}`) === 'anon_inode:[eventpoll]' &&
        /^tfd:\s+0\s/m.test(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8')),
    )
  } catch {
    return false
  }
}

/** The whole process tree under `pid`, with command lines, for a before-and-after check. */
export function treeOf(pid: number): { readonly pid: number; readonly args: string }[] {
  return descendantsOf(pid, listProcesses()).map((entry) => ({ pid: entry.pid, args: commandLine(entry.pid) }))
}
