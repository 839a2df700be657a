import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAgentRuntime, runAgent } from './agent-loop.js'

interface ChatRequest {
  model: string
  messages: { role: string; content?: unknown; tool_call_id?: string }[]
  tools?: { type: string; function: { name: string } }[]
}

const program = `const { files } = await tools.glob({ pattern: '**/*' })
const details = await Promise.all(files.map((path) => tools.file_info({ path })))
const largest = details.sort((left, right) => right.size - left.size)[0]
console.log(largest.path, largest.size)`

/** A Chat Completions endpoint on loopback: first it asks for `run_code`, then it answers with what the program printed. */
function fakeModel(requests: ChatRequest[]): Server {
  return createServer(async (request: IncomingMessage, response) => {
    let body = ''
    for await (const chunk of request) body += chunk
    const chat = JSON.parse(body) as ChatRequest
    requests.push(chat)
    const toolMessage = chat.messages.find((message) => message.role === 'tool')
    const message =
      toolMessage === undefined
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: {
                  name: 'run_code',
                  arguments: JSON.stringify({ code: program, description: 'largest file' }),
                },
              },
            ],
          }
        : { role: 'assistant', content: `Largest: ${String(toolMessage.content)}` }
    response.setHeader('content-type', 'application/json')
    response.end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: 0,
        model: chat.model,
        choices: [{ index: 0, message, finish_reason: toolMessage === undefined ? 'tool_calls' : 'stop' }],
      }),
    )
  })
}

let server: Server
let requests: ChatRequest[]
beforeEach(async () => {
  requests = []
  server = fakeModel(requests)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
})
afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('examples/agent-loop.ts', () => {
  it('drives the openai client through run_code against the workspace toolkit', async () => {
    const { port } = server.address() as AddressInfo
    const client = new OpenAI({ apiKey: 'test', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 })
    const { runtime, close } = createAgentRuntime(fileURLToPath(new URL('workspace', import.meta.url)))
    try {
      const answer = await runAgent({ client, model: 'test-model', runtime, task: 'Which file is largest?' })
      expect(answer).toBe('Largest: data/notes.json 9753')
    } finally {
      await close()
    }
    expect(requests).toHaveLength(2)
    expect(requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(['run_code'])
    expect(String(requests[0]?.messages[0]?.content)).toContain('declare const tools')
    expect(requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'data/notes.json 9753',
    })
  })
})
