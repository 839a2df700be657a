// The agent's four own tools, shared by the four examples (and counted toward each by
// scripts/count-example-lines.ts). Each example connects the fifth, the memory MCP server, itself.
import { setTimeout as sleep } from 'node:timers/promises'
import { defineTool } from 'qilin-tools'
import { z } from 'zod'

export const instructions = 'You plan trips. Remember what the traveller tells you.'

export const travelTools = [
  defineTool({
    name: 'get_weather',
    description: 'The forecast for a city',
    parameters: z.object({ city: z.string().min(2) }),
    execute: ({ city }) => ({ city, forecast: 'sunny' }),
  }),
  defineTool({
    name: 'search_flights',
    description: 'Flights from one city to another',
    parameters: z.object({ from: z.string(), to: z.string() }),
    timeoutMs: 200,
    execute: (_args, { signal }) => sleep(60_000, ['SK 4711'], { signal }),
  }),
  defineTool({
    name: 'book_hotel',
    description: 'Books a hotel room in a city',
    parameters: z.object({ city: z.string() }),
    execute: () => Promise.reject(new Error('the booking service is down')),
  }),
  defineTool({
    name: 'cancel_trip',
    description: 'Cancels a booked trip',
    parameters: z.object({ trip: z.string() }),
    needsApproval: true,
    execute: ({ trip }) => `cancelled ${trip}`,
  }),
]
