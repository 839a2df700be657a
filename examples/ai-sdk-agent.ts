// The travel agent on the Vercel AI SDK: our tools as its tools, its approval requests answered by a person.

import { connectMcpServer } from '@qilin-tools/mcp'
import { generateText, type LanguageModel, type ModelMessage, stepCountIs } from 'ai'
import { createToolRuntime } from 'qilin-tools'
import { toAISDKTools } from 'qilin-tools/providers/ai-sdk'
import { instructions, travelTools } from './travel-tools.js'

/** A person's answer to a call that needs approval. */
type Approve = (toolName: string, args: unknown) => boolean | Promise<boolean>

export async function travelAgent(memoryFile: string) {
  const runtime = createToolRuntime()
  for (const tool of travelTools) runtime.register(tool)
  const server = { name: 'memory', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }
  const memory = await connectMcpServer(runtime, { ...server, env: { MEMORY_FILE_PATH: memoryFile } })
  const ask = async (model: LanguageModel, task: string, approve: Approve) => {
    const tools = toAISDKTools(runtime)
    const messages: ModelMessage[] = [{ role: 'user', content: task }]
    for (let turn = 0; turn < 8; turn++) {
      const result = await generateText({ model, system: instructions, tools, messages, stopWhen: stepCountIs(8) })
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
  return { runtime, ask, close: () => memory.dispose() }
}
