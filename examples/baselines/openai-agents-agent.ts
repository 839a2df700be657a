// Baseline: the travel agent on OpenAI Agents JS without qilin-tools: its own tool(), timeouts, approvals and
// MCP server.
import { setTimeout as sleep } from 'node:timers/promises'
import { Agent, MCPServerStdio, type Model, run, tool } from '@openai/agents'
import { z } from 'zod'

/** A person's answer to a call that needs approval. */
type Approve = (toolName: string, args: unknown) => boolean | Promise<boolean>

const instructions = 'You plan trips. Remember what the traveller tells you.'

export async function travelAgent(memoryFile: string) {
  const server = { name: 'memory', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }
  const memory = new MCPServerStdio({ ...server, env: { MEMORY_FILE_PATH: memoryFile } })
  await memory.connect()
  const tools = [
    tool({
      name: 'get_weather',
      description: 'The forecast for a city',
      parameters: z.object({ city: z.string().min(2) }),
      execute: ({ city }) => ({ city, forecast: 'sunny' }),
    }),
    tool({
      name: 'search_flights',
      description: 'Flights from one city to another',
      parameters: z.object({ from: z.string(), to: z.string() }),
      timeoutMs: 200,
      execute: (_input, _context, details) => sleep(60_000, ['SK 4711'], { signal: details?.signal }),
    }),
    tool({
      name: 'book_hotel',
      description: 'Books a hotel room in a city',
      parameters: z.object({ city: z.string() }),
      execute: () => Promise.reject(new Error('the booking service is down')),
    }),
    tool({
      name: 'cancel_trip',
      description: 'Cancels a booked trip',
      parameters: z.object({ trip: z.string() }),
      needsApproval: true,
      execute: ({ trip }) => `cancelled ${trip}`,
    }),
  ]
  const ask = async (task: string, approve: Approve, model: Model | string = 'gpt-4.1-mini') => {
    const agent = new Agent({ name: 'travel', instructions, model, tools, mcpServers: [memory] })
    let result = await run(agent, task, { maxTurns: 8 })
    while (result.interruptions.length > 0) {
      for (const item of result.interruptions) {
        if (await approve(item.name ?? '', item.arguments)) result.state.approve(item)
        else result.state.reject(item)
      }
      result = await run(agent, result.state, { maxTurns: 8 })
    }
    return String(result.finalOutput)
  }
  return { ask, close: () => memory.close() }
}
