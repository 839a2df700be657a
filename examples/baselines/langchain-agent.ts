// Baseline: the travel agent on LangChain without qilin-tools: its own tool(), timeouts, errors, approvals and
// the memory server's tools, by hand.
import { setTimeout as sleep } from 'node:timers/promises'
import type { BaseChatModel } from '@langchain/core/language_models/chat_models'
import { type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages'
import { type StructuredToolInterface, tool } from '@langchain/core/tools'
import { z } from 'zod'
import { connectMemory } from './memory-mcp.js'

/** A person's answer to a call that needs approval. */
type Approve = (toolName: string, args: unknown) => boolean | Promise<boolean>

const instructions = 'You plan trips. Remember what the traveller tells you.'

export async function travelAgent(memoryFile: string, approve: Approve) {
  const memory = await connectMemory(memoryFile)
  const tools: StructuredToolInterface[] = [
    tool(async ({ city }) => JSON.stringify({ city, forecast: 'sunny' }), {
      name: 'get_weather',
      description: 'The forecast for a city',
      schema: z.object({ city: z.string().min(2) }),
    }),
    tool(
      async (_input, config) => {
        const signal = AbortSignal.any([AbortSignal.timeout(200), ...(config.signal ? [config.signal] : [])])
        return sleep(60_000, 'SK 4711', { signal }).catch(() => 'Error: search_flights did not finish within 200 ms.')
      },
      {
        name: 'search_flights',
        description: 'Flights from one city to another',
        schema: z.object({ from: z.string(), to: z.string() }),
      },
    ),
    tool(() => Promise.reject(new Error('the booking service is down')), {
      name: 'book_hotel',
      description: 'Books a hotel room in a city',
      schema: z.object({ city: z.string() }),
    }),
    tool(
      async ({ trip }) =>
        (await approve('cancel_trip', { trip })) ? `cancelled ${trip}` : 'Error: the call was not approved.',
      { name: 'cancel_trip', description: 'Cancels a booked trip', schema: z.object({ trip: z.string() }) },
    ),
    ...memory.tools.map((mcpTool) =>
      tool((input, config) => memory.call(mcpTool.name, input, config.signal), {
        name: `memory__${mcpTool.name}`,
        description: mcpTool.description ?? '',
        schema: mcpTool.inputSchema,
      }),
    ),
  ]
  const ask = async (model: BaseChatModel, task: string) => {
    const bound = model.bindTools!(tools)
    const messages: BaseMessage[] = [new SystemMessage(instructions), new HumanMessage(task)]
    for (let turn = 0; turn < 8; turn++) {
      const reply = await bound.invoke(messages)
      messages.push(reply)
      if (!reply.tool_calls?.length) return reply.text
      for (const call of reply.tool_calls) {
        const found = tools.find((candidate) => candidate.name === call.name)
        const answer = async (): Promise<ToolMessage> => {
          if (found === undefined) throw new Error(`no tool ${call.name}`)
          return found.invoke(call)
        }
        messages.push(
          await answer().catch(
            (error: unknown) =>
              new ToolMessage({
                tool_call_id: call.id ?? '',
                status: 'error',
                content: `Error: ${error instanceof Error ? error.message : String(error)}`,
              }),
          ),
        )
      }
    }
    throw new Error('no answer after 8 turns')
  }
  return { ask, close: () => memory.close() }
}
