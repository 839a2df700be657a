// The travel agent on LangChain: our tools as its structured tools, in the loop LangChain users write.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models'
import { type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages'
import { connectMcpServer } from '@qilin-tools/mcp'
import { createToolRuntime } from 'qilin-tools'
import { toLangChainTools } from 'qilin-tools/providers/langchain'
import { instructions, travelTools } from './travel-tools.js'

/** A person's answer to a call that needs approval. */
type Approve = (toolName: string, args: unknown) => boolean | Promise<boolean>

/** LangChain has no approval step of its own: our runtime asks `approve` before a call that needs it runs. */
export async function travelAgent(memoryFile: string, approve: Approve) {
  const runtime = createToolRuntime({ approve: ({ call }) => approve(call.name, call.arguments) })
  for (const tool of travelTools) runtime.register(tool)
  const server = { name: 'memory', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }
  const memory = await connectMcpServer(runtime, { ...server, env: { MEMORY_FILE_PATH: memoryFile } })
  const ask = async (model: BaseChatModel, task: string) => {
    const tools = toLangChainTools(runtime)
    const bound = model.bindTools!(tools)
    const messages: BaseMessage[] = [new SystemMessage(instructions), new HumanMessage(task)]
    for (let turn = 0; turn < 8; turn++) {
      const reply = await bound.invoke(messages)
      messages.push(reply)
      if (!reply.tool_calls?.length) return reply.text
      for (const call of reply.tool_calls) {
        const tool = tools.find((candidate) => candidate.name === call.name)
        const unknown = new ToolMessage({ tool_call_id: call.id ?? '', content: `Error: no tool ${call.name}` })
        messages.push(tool ? await tool.invoke(call) : unknown)
      }
    }
    throw new Error('no answer after 8 turns')
  }
  return { runtime, ask, close: () => memory.dispose() }
}
