import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OpenAIProvider, setTracingDisabled } from '@openai/agents'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FakeChatServer, startFakeChatServer, toolResultsIn } from './__fixtures__/fake-chat-server.js'
import { expectedResults } from './__fixtures__/travel-script.js'
import { travelAgent } from './openai-agents-agent.js'

setTracingDisabled(true)

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

describe('examples/openai-agents-agent.ts', () => {
  it('runs the travel agent on OpenAI Agents: the model reads our errors; our runtime asks before cancel_trip runs, without an interruption', async () => {
    const memoryFile = join(directory, 'memory.jsonl')
    const asked: [string, unknown][] = []
    const agent = await travelAgent(memoryFile, ({ call }) => {
      asked.push([call.name, call.arguments])
      // Nothing ran before the person answered: the model has not seen a result for the call yet.
      expect(server.requests.flatMap((request) => Object.keys(toolResultsIn(request)))).not.toContain('call_cancel')
      return true
    })
    try {
      // The Agents SDK's own Chat Completions model, pointed at the fake server.
      const provider = new OpenAIProvider({ apiKey: 'test', baseURL: server.baseURL, useResponses: false })
      const answer = await agent.ask('Plan my Rome trip, then cancel it.', await provider.getModel('fake-model'))
      expect(answer).toContain('the cancellation is with you')
      expect(asked).toEqual([['cancel_trip', { trip: 'Rome trip' }]])
      const [first, second] = server.requests
      expect(first?.messages[0]).toEqual({ role: 'system', content: expect.stringContaining('You plan trips.') })
      expect(first?.tools?.map((tool) => tool.function.name)).toEqual(
        expect.arrayContaining(['get_weather', 'search_flights', 'book_hotel', 'cancel_trip', 'memory__read_graph']),
      )
      expect(toolResultsIn(second)).toEqual(expectedResults)
      expect(readFileSync(memoryFile, 'utf8')).toContain('"Rome trip"')
      expect(toolResultsIn(server.requests.at(-1)).call_cancel).toBe('cancelled Rome trip')
    } finally {
      await agent.close()
    }
  })
})
