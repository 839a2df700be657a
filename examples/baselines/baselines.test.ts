import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OpenAIProvider, setTracingDisabled } from '@openai/agents'
import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FakeChatServer, startFakeChatServer, toolResultsIn } from '../__fixtures__/fake-chat-server.js'
import { travelScript } from '../__fixtures__/travel-script.js'
import { travelAgent as rawAgent } from './openai-agent.js'
import { travelAgent as agentsAgent } from './openai-agents-agent.js'

setTracingDisabled(true)

let server: FakeChatServer
let directory: string
beforeEach(async () => {
  server = await startFakeChatServer()
  directory = mkdtempSync(join(tmpdir(), 'qilin-baseline-'))
})
afterEach(async () => {
  await server.close()
  rmSync(directory, { recursive: true, force: true })
})

// The baselines are the line counts' yardstick; these runs show they do the same job against the same script.
describe('examples/baselines', () => {
  it('the raw openai baseline answers every call of the script with a worded result', async () => {
    const memoryFile = join(directory, 'memory.jsonl')
    const agent = await rawAgent(memoryFile)
    try {
      const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 })
      expect(await agent.ask(client, 'Plan my Rome trip, then cancel it.', 'fake-model')).toContain('with you')
      const results = toolResultsIn(server.requests[1])
      expect(results.call_weather).toMatch(/^Error: invalid arguments for get_weather/)
      expect(results.call_flights).toBe('Error: search_flights did not finish within 200 ms.')
      expect(results.call_hotel).toBe('Error: the booking service is down')
      expect(readFileSync(memoryFile, 'utf8')).toContain('"Rome trip"')
      expect(toolResultsIn(server.requests[2]).call_cancel).toMatch(/waiting for a person's approval/)
      expect(agent.pending).toEqual([{ name: 'cancel_trip', args: { trip: 'Rome trip' } }])
    } finally {
      await agent.close()
    }
  })

  it('the OpenAI Agents baseline answers every call of the script and asks before cancel_trip', async () => {
    // OpenAI Agents names the MCP server's tools as the server does, without our `memory__` prefix.
    await server.close()
    server = await startFakeChatServer(
      travelScript.map((step) =>
        typeof step === 'string' ? step : step.map((call) => ({ ...call, name: call.name.replace(/^memory__/, '') })),
      ),
    )
    const memoryFile = join(directory, 'memory.jsonl')
    const agent = await agentsAgent(memoryFile)
    try {
      const provider = new OpenAIProvider({ apiKey: 'test', baseURL: server.baseURL, useResponses: false })
      const asked: string[] = []
      const answer = await agent.ask(
        'Plan my Rome trip, then cancel it.',
        (name) => {
          asked.push(name)
          return true
        },
        await provider.getModel('fake-model'),
      )
      expect(answer).toContain('with you')
      expect(asked).toEqual(['cancel_trip'])
      const results = toolResultsIn(server.requests[1])
      expect(Object.keys(results).sort()).toEqual(['call_flights', 'call_hotel', 'call_memory', 'call_weather'])
      // What the model reads for a city too short: no word of what was wrong (ours names the field and the rule).
      expect(results.call_weather).toBe('An error occurred while running the tool. Please try again.')
      expect(readFileSync(memoryFile, 'utf8')).toContain('"Rome trip"')
      expect(results.call_flights).toBe("Tool 'search_flights' timed out after 200ms.")
      expect(results.call_hotel).toBe('An error occurred while running the tool. Please try again.')
    } finally {
      await agent.close()
    }
  })
})
