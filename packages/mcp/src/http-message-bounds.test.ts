import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_HTTP_MESSAGE_BYTES } from './bounded-http-messages.js'
import { connectMcpServer } from './connect-mcp-server.js'

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
})

/** The flooding fixture in its own process, so that its buffers are not counted as this host's. */
async function floodingServer(mode: 'json' | 'sse'): Promise<string> {
  const script = new URL('./__fixtures__/flooding-http-server.ts', import.meta.url).pathname
  const child = spawn(process.execPath, ['--import', 'tsx', script, mode], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  const [line] = (await once(child.stdout!, 'data')) as [Buffer]
  return `http://127.0.0.1:${line.toString().trim()}/mcp`
}

/** The highest RSS of this process while `work` runs, sampled every 20 ms, over what it was before. */
async function peakGrowthMb(work: () => Promise<unknown>): Promise<number> {
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 20)
  try {
    await work()
  } finally {
    clearInterval(sampler)
  }
  return (Math.max(peak, process.memoryUsage().rss) - before) / 1024 / 1024
}

describe('a remote MCP server that floods one answer', () => {
  it.each(['json', 'sse'] as const)(
    '%s: the connection fails at the message limit instead of buffering 400 MB',
    async (mode) => {
      const url = await floodingServer(mode)
      let failure: unknown
      const growth = await peakGrowthMb(() =>
        connectMcpServer(createToolRuntime(), { name: 'flood', url, connectTimeoutMs: 60_000 }).then(
          (connection) => connection.dispose(),
          (error: unknown) => {
            failure = error
          },
        ),
      )
      expect(String(failure)).toContain(`more than ${MAX_HTTP_MESSAGE_BYTES} bytes`)
      expect(growth).toBeLessThan(150)
    },
    90_000,
  )
})
