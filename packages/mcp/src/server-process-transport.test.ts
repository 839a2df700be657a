import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ServerProcessTransport } from './server-process-transport.js'

/** Whether `pid` still runs (a zombie counts as gone: it only waits to be reaped). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

/** Whether `pid` is gone within a second (a signal is delivered a moment after `kill` returns). */
async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 1_000
  while (running(pid)) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return true
}

/** Starts `script` under sh as a server and returns the pid of the `sleep` it leaves in its group. */
async function startWithSleeper(script: string) {
  let printed = ''
  const transport = new ServerProcessTransport({
    command: 'sh',
    args: ['-c', script],
    stderr: 'pipe',
    onStderr: (chunk) => {
      printed += chunk.toString('utf8')
    },
  })
  await transport.start()
  const deadline = Date.now() + 5_000
  while (!/^\d+\n/.test(printed)) {
    if (Date.now() > deadline) throw new Error(`the sleeper never reported its pid: ${printed}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return { transport, sleeper: Number(printed.split('\n')[0]) }
}

describe('ServerProcessTransport', () => {
  it('kills what the server started when the server ignores the closing of its stdin', async () => {
    const { transport, sleeper } = await startWithSleeper('sleep 301 & echo $! >&2; wait')
    expect(running(sleeper)).toBe(true)
    await transport.close()
    expect(await gone(sleeper)).toBe(true)
    expect(await gone(transport.pid ?? 0)).toBe(true)
  })

  it('kills what a server left in its group after it exited politely on end of stdin', async () => {
    const { transport, sleeper } = await startWithSleeper('sleep 302 & echo $! >&2; cat > /dev/null')
    const started = Date.now()
    await transport.close()
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(await gone(sleeper)).toBe(true)
  })

  it('kills the whole group at once for a start that is given up', async () => {
    const { transport, sleeper } = await startWithSleeper('sleep 303 & echo $! >&2; wait')
    transport.kill()
    await transport.close()
    expect(await gone(sleeper)).toBe(true)
  })

  it('stops a server that floods stdout without a newline, and the host stays responsive', async () => {
    const transport = new ServerProcessTransport({
      command: process.execPath,
      args: [
        '-e',
        "const block = 'x'.repeat(1 << 16); const flood = () => process.stdout.write(block, flood); flood()",
      ],
      stderr: 'ignore',
    })
    const errors: string[] = []
    transport.onerror = (error) => errors.push(error.message)
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve()
    })
    let worstLagMs = 0
    let last = Date.now()
    const probe = setInterval(() => {
      worstLagMs = Math.max(worstLagMs, Date.now() - last - 10)
      last = Date.now()
    }, 10)
    try {
      await transport.start()
      await closed
    } finally {
      clearInterval(probe)
    }
    expect(errors[0]).toMatch(/more than 10485760 bytes without a newline/)
    expect(await gone(transport.pid ?? 0)).toBe(true)
    expect(worstLagMs).toBeLessThan(500)
  }, 15_000)

  it('passes over a flood of lines that are not JSON-RPC cheaply, reports a few, and still reads the next message', async () => {
    const transport = new ServerProcessTransport({
      command: process.execPath,
      args: [
        '-e',
        'process.stdout.write(\'not json\\n\'.repeat(200000) + \'{"jsonrpc":"2.0","method":"notifications/ready"}\\n\'); setInterval(() => {}, 1000)',
      ],
      stderr: 'ignore',
    })
    const errors: string[] = []
    transport.onerror = (error) => errors.push(error.message)
    const ready = new Promise<unknown>((resolve) => {
      transport.onmessage = resolve
    })
    try {
      await transport.start()
      expect(await ready).toEqual({ jsonrpc: '2.0', method: 'notifications/ready' })
    } finally {
      await transport.close()
    }
    expect(errors.length).toBeGreaterThan(0)
    expect(errors.length).toBeLessThanOrEqual(8)
    expect(errors[0]).toMatch(/not JSON-RPC/)
  }, 15_000)

  it('fails the start of a command that does not exist, with the reason', async () => {
    const transport = new ServerProcessTransport({ command: 'qilin-no-such-binary', args: [], stderr: 'pipe' })
    await expect(transport.start()).rejects.toThrow(/ENOENT/)
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).rejects.toThrow(/not running/)
  })
})
