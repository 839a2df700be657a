import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { langChainResultsIn, ScriptedChatModel } from './__fixtures__/scripted-chat-model.js'
import { expectedResults } from './__fixtures__/travel-script.js'
import { travelAgent } from './langchain-agent.js'

let directory: string
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qilin-example-'))
})
afterEach(() => rmSync(directory, { recursive: true, force: true }))

describe('examples/langchain-agent.ts', () => {
  it('runs the travel agent on LangChain: the model reads our errors, and our approver denies cancel_trip', async () => {
    const memoryFile = join(directory, 'memory.jsonl')
    const asked: [string, unknown][] = []
    const agent = await travelAgent(memoryFile, (name, args) => {
      asked.push([name, args])
      return false
    })
    const model = new ScriptedChatModel()
    try {
      const answer = await agent.ask(model, 'Plan my Rome trip, then cancel it.')
      expect(answer).toContain('the cancellation is with you')
      expect(asked).toEqual([['cancel_trip', { trip: 'Rome trip' }]])
      const [first, second] = model.requests
      expect(first?.[0]?.getType()).toBe('system')
      expect(model.boundTools.map((tool) => tool.function.name)).toEqual(
        expect.arrayContaining(['get_weather', 'search_flights', 'book_hotel', 'cancel_trip', 'memory__read_graph']),
      )
      expect(langChainResultsIn(second)).toEqual(expectedResults)
      expect(readFileSync(memoryFile, 'utf8')).toContain('"Rome trip"')
      expect(langChainResultsIn(model.requests.at(-1)).call_cancel).toBe(
        'Error: The call to cancel_trip was not approved.',
      )
    } finally {
      await agent.close()
    }
  })

  it('answers a call to a tool that does not exist, and a call with no arguments, instead of throwing', async () => {
    const agent = await travelAgent(join(directory, 'memory.jsonl'), () => false)
    const model = new ScriptedChatModel([
      [
        { id: 'call_ghost', name: 'no_such_tool', arguments: {} },
        { id: 'call_bare', name: 'get_weather', arguments: {} },
      ],
      'sorry',
    ])
    try {
      expect(await agent.ask(model, 'go')).toBe('sorry')
      expect(langChainResultsIn(model.requests.at(-1))).toEqual({
        call_ghost: 'Error: no tool no_such_tool',
        call_bare: expect.stringMatching(/^Error: Invalid arguments for get_weather/),
      })
    } finally {
      await agent.close()
    }
  })
})
