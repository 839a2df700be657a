import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { descendantsOf, listProcesses } from './process-tree.js'

describe('process-tree', () => {
  it('finds a child and the grandchild it started, with their process groups', async () => {
    const child = spawn('sh', ['-c', 'sleep 304 & echo $!; wait'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    try {
      const [chunk] = (await once(child.stdout, 'data')) as [Buffer]
      const grandchild = Number(chunk.toString().trim())
      const found = descendantsOf(process.pid)
      const own = found.find((entry) => entry.pid === child.pid)
      expect(own).toEqual({ pid: child.pid, parentPid: process.pid, groupId: child.pid })
      expect(found.find((entry) => entry.pid === grandchild)).toEqual({
        pid: grandchild,
        parentPid: child.pid,
        groupId: child.pid,
      })
      expect(found.findIndex((entry) => entry.pid === child.pid)).toBeLessThan(
        found.findIndex((entry) => entry.pid === grandchild),
      )
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
    }
  })

  it('reads command names with spaces and parentheses', async () => {
    const child = spawn(process.execPath, ['-e', "process.title = 'a (b) c'; setInterval(() => {}, 1000)"])
    try {
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(listProcesses().find((entry) => entry.pid === child.pid)).toEqual({
        pid: child.pid,
        parentPid: process.pid,
        groupId: expect.any(Number),
      })
    } finally {
      child.kill('SIGKILL')
    }
  })

  it('walks a table it is given, parents before children', () => {
    const table = [
      { pid: 3, parentPid: 2, groupId: 2 },
      { pid: 2, parentPid: 1, groupId: 2 },
      { pid: 4, parentPid: 9, groupId: 4 },
    ]
    expect(descendantsOf(1, table).map((entry) => entry.pid)).toEqual([2, 3])
  })
})
