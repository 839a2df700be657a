import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { createSessionTable } from './session-table.js'

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function entry() {
  const state = { closed: 0, close: async () => void state.closed++ }
  return state
}

describe('createSessionTable', () => {
  it('closes and drops a session once it has been idle for idleMs', async () => {
    const table = createSessionTable({ idleMs: 40, maxSessions: 10 })
    const session = entry()
    table.reserve()!.admit('a', session)
    expect(table.get('a')).toBe(session)
    await pause(100)
    expect(table.get('a')).toBeUndefined()
    expect(session.closed).toBe(1)
    expect(table.size).toBe(0)
  })

  it('does not expire a session while one of its requests is open, and restarts the clock after', async () => {
    const table = createSessionTable({ idleMs: 40, maxSessions: 10 })
    const session = entry()
    table.reserve()!.admit('a', session)
    const done = table.busy('a')
    await pause(100)
    expect(table.get('a')).toBe(session)
    done()
    done()
    await pause(20)
    expect(table.get('a')).toBe(session)
    await pause(80)
    expect(session.closed).toBe(1)
  })

  it('counts opening sessions against the cap and frees a released place', () => {
    const table = createSessionTable({ idleMs: 60_000, maxSessions: 2 })
    const first = table.reserve()!
    const second = table.reserve()!
    expect(table.reserve()).toBeUndefined()
    second.release()
    second.release()
    first.admit('a', entry())
    expect(table.size).toBe(1)
    expect(table.reserve()).toBeDefined()
    expect(table.reserve()).toBeUndefined()
  })

  it('forgets a session that closed itself without closing it again', async () => {
    const table = createSessionTable({ idleMs: 30, maxSessions: 2 })
    const session = entry()
    table.reserve()!.admit('a', session)
    table.forget('a')
    await pause(60)
    expect(session.closed).toBe(0)
    expect(table.size).toBe(0)
  })

  it('closes every session on closeAll', async () => {
    const table = createSessionTable({ idleMs: 60_000, maxSessions: 5 })
    const sessions = [entry(), entry(), entry()]
    for (const [index, session] of sessions.entries()) table.reserve()!.admit(String(index), session)
    await table.closeAll()
    expect(sessions.map((session) => session.closed)).toEqual([1, 1, 1])
    expect(table.size).toBe(0)
  })

  it('never keeps the process alive with its idle timers', async () => {
    const program = [
      "import { createSessionTable } from './packages/mcp/src/session-table.ts'",
      'const table = createSessionTable({ idleMs: 600_000, maxSessions: 1 })',
      'table.reserve().admit("a", { close: async () => {} })',
    ].join('\n')
    // A timer that kept the process up would hold it for ten minutes: execFile kills it at 4 s and rejects.
    await expect(
      promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
        timeout: 4_000,
      }),
    ).resolves.toBeDefined()
  })
})
