import type { ChildProcess } from 'node:child_process'

/** How long a killed runner's pipes may stay open before our ends are closed. */
export const PIPES_GRACE_MS = 2_000

/**
 * SIGKILLs `child`'s process group, then resolves once `closed` does. A process in a session of its own (bubblewrap's
 * `--new-session` child, whose `--die-with-parent` races a kill during start-up) survives the group kill and keeps
 * the pipes open, so the child's `close` never comes: past `graceMs` our ends of its pipes are destroyed, which
 * lets `close` fire and gives such a process EOF on its channel.
 */
export async function stopProcessGroup(child: ChildProcess, closed: Promise<unknown>, graceMs = PIPES_GRACE_MS) {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      child.kill('SIGKILL')
    }
  }
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs)
  })
  const first = await Promise.race([closed.then(() => 'closed' as const), late])
  clearTimeout(timer)
  if (first === 'late') {
    for (const stream of child.stdio) stream?.destroy()
    await closed
  }
}
