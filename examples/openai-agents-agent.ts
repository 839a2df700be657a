// The travel agent on OpenAI Agents JS: our tools as its function tools, its runner interrupting for approval.
import { Agent, type Model, run } from '@openai/agents'
import { createToolRuntime } from 'qilin-tools'
import { toOpenAIAgentsTools } from 'qilin-tools/providers/openai-agents'
import { addTravelTools, instructions } from './travel-tools.js'

/** A person's answer to a call that needs approval. */
type Approve = (toolName: string, args: unknown) => boolean | Promise<boolean>

export async function travelAgent(memoryFile: string) {
  const runtime = createToolRuntime()
  const memory = await addTravelTools(runtime, memoryFile)
  const ask = async (task: string, approve: Approve, model: Model | string = 'gpt-4.1-mini') => {
    const agent = new Agent({ name: 'travel', instructions, model, tools: toOpenAIAgentsTools(runtime) })
    let result = await run(agent, task, { maxTurns: 8 })
    while (result.interruptions.length > 0) {
      for (const item of result.interruptions) {
        if (await approve(item.name ?? '', item.arguments)) result.state.approve(item)
        else result.state.reject(item)
      }
      result = await run(agent, result.state, { maxTurns: 8 })
    }
    return String(result.finalOutput)
  }
  return { runtime, ask, close: () => memory.dispose() }
}
