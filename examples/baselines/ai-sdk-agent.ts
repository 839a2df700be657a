// Baseline: the travel agent on the Vercel AI SDK without qilin-tools: its own tool(), timeouts and approvals.
import { setTimeout as sleep } from 'node:timers/promises'
import {
  dynamicTool,
  generateText,
  type JSONSchema7,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  tool,
} from 'ai'
import { z } from 'zod'
import { connectMemory } from './memory-mcp.js'

/** A person's answer to a call that needs approval. */
type Approve = (toolName: string, args: unknown) => boolean | Promise<boolean>

const instructions = 'You plan trips. Remember what the traveller tells you.'

export async function travelAgent(memoryFile: string) {
  const memory = await connectMemory(memoryFile)
  const tools = {
    get_weather: tool({
      description: 'The forecast for a city',
      inputSchema: z.object({ city: z.string().min(2) }),
      execute: async ({ city }) => ({ city, forecast: 'sunny' }),
    }),
    search_flights: tool({
      description: 'Flights from one city to another',
      inputSchema: z.object({ from: z.string(), to: z.string() }),
      execute: (_input, { abortSignal }) => sleep(60_000, ['SK 4711'], { signal: abortSignal }),
    }),
    book_hotel: tool({
      description: 'Books a hotel room in a city',
      inputSchema: z.object({ city: z.string() }),
      execute: (): Promise<string> => Promise.reject(new Error('the booking service is down')),
    }),
    cancel_trip: tool({
      description: 'Cancels a booked trip',
      inputSchema: z.object({ trip: z.string() }),
      needsApproval: true,
      execute: async ({ trip }) => `cancelled ${trip}`,
    }),
    ...Object.fromEntries(
      memory.tools.map((mcpTool) => [
        `memory__${mcpTool.name}`,
        dynamicTool({
          description: mcpTool.description ?? '',
          inputSchema: jsonSchema(mcpTool.inputSchema as JSONSchema7),
          execute: (input, { abortSignal }) => memory.call(mcpTool.name, input, abortSignal),
        }),
      ]),
    ),
  }
  const ask = async (model: LanguageModel, task: string, approve: Approve) => {
    const messages: ModelMessage[] = [{ role: 'user', content: task }]
    for (let turn = 0; turn < 8; turn++) {
      const result = await generateText({
        model,
        system: instructions,
        tools,
        messages,
        stopWhen: stepCountIs(8),
        timeout: { tools: { search_flightsMs: 200 } },
      })
      messages.push(...result.responseMessages)
      const requests = result.content.filter((part) => part.type === 'tool-approval-request')
      if (requests.length === 0) return result.text
      const answers = requests.map(async ({ approvalId, toolCall }) => ({
        type: 'tool-approval-response' as const,
        approvalId,
        approved: await approve(toolCall.toolName, toolCall.input),
      }))
      messages.push({ role: 'tool', content: await Promise.all(answers) })
    }
    throw new Error('no answer after 8 turns')
  }
  return { ask, close: () => memory.close() }
}
