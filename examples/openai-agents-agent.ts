// The travel agent on OpenAI Agents JS: our tools as its function tools, our runtime asking for approval.
import { Agent, type Model, run } from '@openai/agents'
import { createToolRuntime } from 'qilin-tools'
import { toOpenAIAgentsTools } from 'qilin-tools/providers/openai-agents'
import { addTravelTools, instructions } from './travel-tools.js'

/** A person's answer to a call that needs approval. */
type Approve = (toolName: string, args: unknown) => boolean | Promise<boolean>

/** Our runtime asks `approve` inside the call that needs it, so the runner never has to interrupt. */
export async function travelAgent(memoryFile: string, approve: Approve) {
  const runtime = createToolRuntime({ approve: ({ call }) => approve(call.name, call.arguments) })
  const memory = await addTravelTools(runtime, memoryFile)
  const tools = toOpenAIAgentsTools(runtime, { approvals: 'runtime' })
  const ask = async (task: string, model: Model | string = 'gpt-4.1-mini') => {
    const agent = new Agent({ name: 'travel', instructions, model, tools })
    return String((await run(agent, task, { maxTurns: 8 })).finalOutput)
  }
  return { runtime, ask, close: () => memory.dispose() }
}
