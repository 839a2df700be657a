import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import { everythingServer } from './__fixtures__/real-servers.js'
import { connectMcpServer } from './connect-mcp-server.js'
import {
  boundedLogMessage,
  MAX_LOG_DATA_BYTES,
  MAX_LOG_MESSAGES_PER_SECOND,
  type McpLogMessage,
  rateLimitedLog,
} from './log-messages.js'
import { serveMcp } from './serve-mcp.js'

describe('boundedLogMessage', () => {
  it('keeps small data as it came and tags the server', () => {
    expect(boundedLogMessage('fs', { level: 'info', logger: 'io', data: { read: 3 } })).toEqual({
      server: 'fs',
      level: 'info',
      logger: 'io',
      data: { read: 3 },
    })
  })

  it('cuts data past its budget to a string that says how much was left out, and long logger names', () => {
    const message = boundedLogMessage('fs', { level: 'error', logger: 'x'.repeat(10_000), data: 'a'.repeat(50_000) })
    expect(message.logger).toHaveLength(128)
    expect(typeof message.data).toBe('string')
    expect((message.data as string).length).toBeLessThan(MAX_LOG_DATA_BYTES + 100)
    expect(message.data).toMatch(/… \[\d+ more characters left out\]$/)
  })
})

describe('rateLimitedLog', () => {
  it('passes a second’s worth of a flood, counts the rest, and says so before the next message', () => {
    let now = 1_000_000
    const delivered: McpLogMessage[] = []
    const log = rateLimitedLog(
      'noisy',
      (message) => delivered.push(message),
      () => now,
    )
    const message = { server: 'noisy', level: 'debug', data: 'tick' } as const
    for (let n = 0; n < 1_000_000; n++) log(message)
    expect(delivered).toHaveLength(MAX_LOG_MESSAGES_PER_SECOND)
    now += 1000
    log(message)
    expect(delivered.slice(-2)).toEqual([
      {
        server: 'noisy',
        level: 'warning',
        data: `${1_000_000 - MAX_LOG_MESSAGES_PER_SECOND} log messages from this server were dropped (over 100 a second)`,
      },
      message,
    ])
  })
})

describe('log messages through the proxy', () => {
  it('hands a real server’s log messages to onLog, and serveMcp passes them to clients at their chosen level', async () => {
    const runtime = createToolRuntime()
    const received: McpLogMessage[] = []
    let arrived: () => void = () => {}
    const first = new Promise<void>((resolve) => {
      arrived = resolve
    })
    const connection = await connectMcpServer(runtime, {
      ...everythingServer(),
      onLog: (message) => {
        received.push(message)
        arrived()
      },
    })
    const serving = await serveMcp(runtime, { transport: { http: { port: 0 } }, mode: 'native' })
    const clients = ['debug', 'emergency'].map(() => new Client({ name: 'log-test', version: '1.0.0' }))
    const seen: Record<string, unknown[]> = { debug: [], emergency: [] }
    try {
      // server-everything sends one message at once when its simulated logging starts (then one every 5 s).
      await runtime.execute({ id: 'log-1', name: 'everything__toggle-simulated-logging', arguments: {} })
      await first
      expect(received[0]).toMatchObject({ server: 'everything', level: expect.any(String), data: expect.any(String) })

      for (const [index, level] of (['debug', 'emergency'] as const).entries()) {
        const client = clients[index] as Client
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
          seen[level]?.push(notification.params)
        })
        await client.connect(
          new StreamableHTTPClientTransport(new URL(serving.url!), {
            requestInit: { headers: { authorization: `Bearer ${serving.token}` } },
          }),
        )
        await client.setLoggingLevel(level)
      }
      // The standalone stream a client opens after initialize is where server-initiated messages go.
      await new Promise((resolve) => setTimeout(resolve, 300))
      serving.log({ server: 'everything', level: 'warning', logger: 'sim', data: 'forwarded' })
      await expect.poll(() => seen.debug).toEqual([{ level: 'warning', logger: 'everything/sim', data: 'forwarded' }])
      expect(seen.emergency).toEqual([])
    } finally {
      await Promise.all(clients.map((client) => client.close()))
      await serving.close()
      await connection.dispose()
    }
  })
})
