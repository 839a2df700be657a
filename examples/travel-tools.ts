// The agent's tools, shared by the four examples (and counted toward each by scripts/count-example-lines.ts).
import { setTimeout as sleep } from 'node:timers/promises'
import { connectMcpServer } from '@qilin-tools/mcp'
import { defineTool, type ToolRuntime } from 'qilin-tools'
import { z } from 'zod'

/** A person's answer to a call that needs approval. */
export type Approve = (toolName: string, args: unknown) => boolean | Promise<boolean>

export const instructions = 'You plan trips. Remember what the traveller tells you.'

/** Registers the five tools in `runtime`: four of our own and the memory MCP server's. Dispose to stop the server. */
export async function addTravelTools(runtime: Pick<ToolRuntime, 'register'>, memoryFile: string) {
  runtime.register(
    defineTool({
      name: 'get_weather',
      description: 'The forecast for a city',
      parameters: z.object({ city: z.string().min(2) }),
      execute: ({ city }) => ({ city, forecast: 'sunny' }),
    }),
  )
  runtime.register(
    defineTool({
      name: 'search_flights',
      description: 'Flights from one city to another',
      parameters: { from: { type: 'string', required: true }, to: { type: 'string', required: true } },
      timeoutMs: 200,
      execute: (_args, { signal }) => sleep(60_000, ['SK 4711'], { signal }),
    }),
  )
  runtime.register(
    defineTool({
      name: 'book_hotel',
      description: 'Books a hotel room in a city',
      parameters: { city: { type: 'string', required: true } },
      execute: () => {
        throw new Error('the booking service is down')
      },
    }),
  )
  runtime.register(
    defineTool({
      name: 'cancel_trip',
      description: 'Cancels a booked trip',
      parameters: { trip: { type: 'string', required: true } },
      needsApproval: true,
      execute: ({ trip }) => `cancelled ${trip}`,
    }),
  )
  return connectMcpServer(runtime, {
    name: 'memory',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-memory'],
    env: { MEMORY_FILE_PATH: memoryFile },
  })
}
