// The travel agent on OpenAI Agents JS: our tools as its function tools, our runtime asking for approval.
import { Agent, type Model, run } from '@openai/agents'
import { connectMcpServer } from '@qilin-tools/mcp'
import { type Approver, createToolRuntime } from 'qilin-tools'
import { toOpenAIAgentsTools } from 'qilin-tools/providers/openai-agents'
import { instructions, travelTools } from './travel-tools.js'

/** Our runtime asks `approve` inside the call that needs it, so the runner never has to interrupt. */
export async function travelAgent(memoryFile: string, approve: Approver) {
  const runtime = createToolRuntime({ approve })
  for (const tool of travelTools) runtime.register(tool)
  const server = { name: 'memory', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }
  const memory = await connectMcpServer(runtime, { ...server, env: { MEMORY_FILE_PATH: memoryFile } })
  const tools = toOpenAIAgentsTools(runtime, { approvals: 'runtime' })
  const ask = async (task: string, model: Model | string = 'gpt-4.1-mini') => {
    const agent = new Agent({ name: 'travel', instructions, model, tools })
    return String((await run(agent, task, { maxTurns: 8 })).finalOutput)
  }
  return { runtime, ask, close: () => memory.dispose() }
}
