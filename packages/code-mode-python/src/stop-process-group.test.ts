import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { stopProcessGroup } from './stop-process-group.js'

/** A shell whose background child moved to a session of its own, holding the shell's stdout pipe open. */
function groupWithEscapee() {
  const child = spawn('sh', ['-c', 'setsid sh -c "echo \\$\\$; exec sleep 30" & sleep 30'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const closed = once(child, 'close')
  return { child, closed }
}

describe('stopProcessGroup', () => {
  it('resolves when a process outside the group keeps the pipes open, once the grace has passed', async () => {
    const { child, closed } = groupWithEscapee()
    // Printed after setsid: the escapee, in its own session now, is the sleep with this pid.
    const [pid] = (await once(child.stdout!, 'data')) as [Buffer]
    let settled = false
    closed.then(() => {
      settled = true
    })
    const started = Date.now()
    try {
      await stopProcessGroup(child, closed, 200)
    } finally {
      process.kill(Number(pid.toString().trim()), 'SIGKILL')
    }
    expect(child.signalCode).toBe('SIGKILL')
    expect(settled).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
  })

  it('resolves as soon as the group is gone when nothing outlives it', async () => {
    const child = spawn('sh', ['-c', 'echo started; sleep 30'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] })
    const closed = once(child, 'close')
    await once(child.stdout!, 'data')
    const started = Date.now()
    await stopProcessGroup(child, closed, 10_000)
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})
