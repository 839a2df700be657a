import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aiSdkResultsIn, scriptedAISDKModel } from './__fixtures__/scripted-ai-sdk-model.js'
import { expectedResults } from './__fixtures__/travel-script.js'
import { travelAgent } from './ai-sdk-agent.js'

let directory: string
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qilin-example-'))
})
afterEach(() => rmSync(directory, { recursive: true, force: true }))

describe('examples/ai-sdk-agent.ts', () => {
  it('runs the travel agent on the AI SDK: the model reads our errors; the SDK asks before cancel_trip runs', async () => {
    const memoryFile = join(directory, 'memory.jsonl')
    const agent = await travelAgent(memoryFile)
    const model = scriptedAISDKModel()
    const asked: [string, unknown][] = []
    try {
      const answer = await agent.ask(model, 'Plan my Rome trip, then cancel it.', (name, args) => {
        asked.push([name, args])
        expect(model.doGenerateCalls.flatMap((call) => Object.keys(aiSdkResultsIn(call)))).not.toContain('call_cancel')
        return true
      })
      expect(answer).toContain('the cancellation is with you')
      expect(asked).toEqual([['cancel_trip', { trip: 'Rome trip' }]])
      const [first, second] = model.doGenerateCalls
      expect(first?.prompt[0]).toEqual({ role: 'system', content: expect.stringContaining('You plan trips.') })
      expect(first?.tools?.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['get_weather', 'search_flights', 'book_hotel', 'cancel_trip', 'memory__read_graph']),
      )
      expect(aiSdkResultsIn(second)).toEqual(expectedResults)
      expect(readFileSync(memoryFile, 'utf8')).toContain('"Rome trip"')
      expect(aiSdkResultsIn(model.doGenerateCalls.at(-1)).call_cancel).toBe('cancelled Rome trip')
    } finally {
      await agent.close()
    }
  })
})
