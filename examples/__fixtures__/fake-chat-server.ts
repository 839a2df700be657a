import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Script, stepOf, travelScript } from './travel-script.js'

/** A Chat Completions request as the fake server keeps it. */
export interface ChatRequest {
  readonly model: string
  readonly messages: readonly { role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown[] }[]
  readonly tools?: readonly { type: string; function: { name: string; parameters?: unknown } }[]
}

/** A running fake model: its base URL for an OpenAI client, the requests it got, and `close`. */
export interface FakeChatServer {
  readonly baseURL: string
  readonly requests: ChatRequest[]
  close(): Promise<void>
}

/**
 * An OpenAI-compatible Chat Completions endpoint on 127.0.0.1 that follows the travel script: the round is the
 * number of assistant messages the request already holds, so the server keeps no state between requests.
 */
export async function startFakeChatServer(script: Script = travelScript): Promise<FakeChatServer> {
  const requests: ChatRequest[] = []
  const server: Server = createServer(async (request, response) => {
    let body = ''
    for await (const chunk of request) body += chunk
    const chat = JSON.parse(body) as ChatRequest
    requests.push(chat)
    const step = stepOf(chat.messages.filter((message) => message.role === 'assistant').length, script)
    const message =
      typeof step === 'string'
        ? { role: 'assistant', content: step }
        : {
            role: 'assistant',
            content: null,
            tool_calls: step.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          }
    response.setHeader('content-type', 'application/json')
    response.end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: 0,
        model: chat.model,
        choices: [{ index: 0, message, finish_reason: typeof step === 'string' ? 'stop' : 'tool_calls' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The tool results a request carries, by call id: what the model read back. */
export function toolResultsIn(request: ChatRequest | undefined): Record<string, string> {
  return Object.fromEntries(
    (request?.messages ?? []).flatMap((message) =>
      message.role === 'tool' ? [[message.tool_call_id ?? '', String(message.content)]] : [],
    ),
  )
}
