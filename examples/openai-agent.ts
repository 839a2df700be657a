// The travel agent on the raw `openai` client: our request fields, the SDK call, `runToolTurn`, repeat.

import { connectMcpServer } from '@qilin-tools/mcp'
import type OpenAI from 'openai'
import { createMemoryStore, createToolRuntime } from 'qilin-tools'
import { runToolTurn, toProviderRequest } from 'qilin-tools/providers'
import { instructions, travelTools } from './travel-tools.js'

/** Calls that need approval wait in the runtime's store (`pendingApprovals`, `decide`); the model is told so. */
export async function travelAgent(memoryFile: string) {
  const runtime = createToolRuntime({ approvals: 'defer', store: createMemoryStore() })
  for (const tool of travelTools) runtime.register(tool)
  const server = { name: 'memory', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }
  const memory = await connectMcpServer(runtime, { ...server, env: { MEMORY_FILE_PATH: memoryFile } })
  const ask = async (client: OpenAI, task: string, model = 'gpt-4.1-mini') => {
    const { messages: system = [], tools } = toProviderRequest(runtime, 'openai-chat', { instructions })
    const messages: OpenAI.ChatCompletionMessageParam[] = [...system, { role: 'user', content: task }]
    for (let turn = 0; turn < 8; turn++) {
      const response = await client.chat.completions.create({ model, messages, ...(tools && { tools }) })
      const result = await runToolTurn(runtime, response, { provider: 'openai-chat' })
      messages.push(...result.messages)
      if (result.done) return result.text
    }
    throw new Error('no answer after 8 turns')
  }
  return { runtime, ask, close: () => memory.dispose() }
}
