import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FakeChatServer, startFakeChatServer, toolResultsIn } from './__fixtures__/fake-chat-server.js'
import { expectedResults } from './__fixtures__/travel-script.js'
import { travelAgent } from './openai-agent.js'

let server: FakeChatServer
let directory: string
beforeEach(async () => {
  server = await startFakeChatServer()
  directory = mkdtempSync(join(tmpdir(), 'qilin-example-'))
})
afterEach(async () => {
  await server.close()
  rmSync(directory, { recursive: true, force: true })
})

describe('examples/openai-agent.ts', () => {
  it('runs the travel agent on the openai client: the model reads our errors, then the pending approval', async () => {
    const memoryFile = join(directory, 'memory.jsonl')
    const agent = await travelAgent(memoryFile)
    try {
      const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 })
      const answer = await agent.ask(client, 'Plan my Rome trip, then cancel it.', 'fake-model')
      expect(answer).toContain('the cancellation is with you')
      expect(server.requests).toHaveLength(3)
      const [first, second, third] = server.requests
      expect(first?.messages[0]).toEqual({ role: 'system', content: expect.stringContaining('You plan trips.') })
      expect(first?.tools?.map((tool) => tool.function.name)).toEqual(
        expect.arrayContaining(['get_weather', 'search_flights', 'book_hotel', 'cancel_trip', 'memory__read_graph']),
      )
      expect(toolResultsIn(second)).toEqual(expectedResults)
      expect(readFileSync(memoryFile, 'utf8')).toContain('"Rome trip"')
      // Every call of the first round answered once, nothing more.
      expect(second?.messages.filter((message) => message.role === 'tool')).toHaveLength(4)
      expect(toolResultsIn(third).call_cancel).toBe(
        'The call to cancel_trip is waiting for a person to approve it and has not run yet. Its result will be sent when they decide; do not call it again meanwhile.',
      )
      const pending = await agent.runtime.pendingApprovals()
      expect(pending.map((record) => [record.toolName, record.arguments])).toEqual([
        ['cancel_trip', { trip: 'Rome trip' }],
      ])
      const decided = await agent.runtime.decide(pending[0]!.approvalId, { approved: true })
      expect(decided).toMatchObject({ ok: true, value: 'cancelled Rome trip' })
    } finally {
      await agent.close()
    }
  })
})
