// Baseline: the travel agent on the raw `openai` client without qilin-tools: schemas, validation, timeouts,
// errors, approvals, MCP and the loop, by hand.
import { setTimeout as sleep } from 'node:timers/promises'
import type OpenAI from 'openai'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import { z } from 'zod'
import { connectMemory } from './memory-mcp.js'

const instructions = 'You plan trips. Remember what the traveller tells you.'

interface LocalTool {
  readonly description: string
  readonly schema: z.ZodType
  readonly timeoutMs?: number
  readonly needsApproval?: boolean
  readonly run: (args: never, signal: AbortSignal) => unknown
}

const local: Record<string, LocalTool> = {
  get_weather: {
    description: 'The forecast for a city',
    schema: z.object({ city: z.string().min(2) }),
    run: ({ city }: { city: string }) => ({ city, forecast: 'sunny' }),
  },
  search_flights: {
    description: 'Flights from one city to another',
    schema: z.object({ from: z.string(), to: z.string() }),
    timeoutMs: 200,
    run: (_args, signal) => sleep(60_000, ['SK 4711'], { signal }),
  },
  book_hotel: {
    description: 'Books a hotel room in a city',
    schema: z.object({ city: z.string() }),
    run: () => Promise.reject(new Error('the booking service is down')),
  },
  cancel_trip: {
    description: 'Cancels a booked trip',
    schema: z.object({ trip: z.string() }),
    needsApproval: true,
    run: ({ trip }: { trip: string }) => `cancelled ${trip}`,
  },
}

export async function travelAgent(memoryFile: string) {
  const memory = await connectMemory(memoryFile)
  const pending: { name: string; args: unknown }[] = []
  const tools: ChatCompletionTool[] = [
    ...Object.entries(local).map(([name, tool]) => ({
      type: 'function' as const,
      function: { name, description: tool.description, parameters: z.toJSONSchema(tool.schema) },
    })),
    ...memory.tools.map((tool) => ({
      type: 'function' as const,
      function: { name: `memory__${tool.name}`, description: tool.description ?? '', parameters: tool.inputSchema },
    })),
  ]
  const runCall = async (name: string, text: string): Promise<string> => {
    let args: unknown
    try {
      args = JSON.parse(text)
    } catch {
      return `Error: the arguments for ${name} are not JSON`
    }
    if (name.startsWith('memory__')) return memory.call(name.slice('memory__'.length), args)
    const tool = Object.hasOwn(local, name) ? local[name] : undefined
    if (tool === undefined) return `Error: no tool ${name}`
    const parsed = tool.schema.safeParse(args)
    if (!parsed.success) return `Error: invalid arguments for ${name}: ${z.prettifyError(parsed.error)}`
    if (tool.needsApproval) {
      pending.push({ name, args: parsed.data })
      return `The call to ${name} is waiting for a person's approval.`
    }
    const signal = AbortSignal.timeout(tool.timeoutMs ?? 60_000)
    const timedOut = new Promise<never>((_resolve, reject) =>
      signal.addEventListener('abort', () => reject(new Error(`${name} did not finish within ${tool.timeoutMs} ms.`))),
    )
    try {
      const value = await Promise.race([tool.run(parsed.data as never, signal), timedOut])
      return typeof value === 'string' ? value : JSON.stringify(value)
    } catch (error) {
      return `Error: ${error instanceof Error ? error.message : String(error)}`
    }
  }
  const ask = async (client: OpenAI, task: string, model = 'gpt-4.1-mini') => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: instructions },
      { role: 'user', content: task },
    ]
    for (let turn = 0; turn < 8; turn++) {
      const completion = await client.chat.completions.create({ model, messages, tools })
      const message = completion.choices[0]?.message
      if (message === undefined) throw new Error('the model returned no choice')
      messages.push(message)
      if (!message.tool_calls?.length) return message.content ?? ''
      const answers = message.tool_calls.map(async (call) => ({
        role: 'tool' as const,
        tool_call_id: call.id,
        content:
          call.type === 'function'
            ? await runCall(call.function.name, call.function.arguments)
            : 'Error: not a function call',
      }))
      messages.push(...(await Promise.all(answers)))
    }
    throw new Error('no answer after 8 turns')
  }
  return { pending, ask, close: () => memory.close() }
}
