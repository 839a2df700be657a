// An agent loop: the real `openai` client, the qilin-tools runtime in code mode, and the workspace toolkit.
//
//   OPENAI_API_KEY=… [OPENAI_BASE_URL=…] [OPENAI_MODEL=…] node --no-node-snapshot --import tsx examples/agent-loop.ts "Which file is largest?"
//
// The model sees one tool, `run_code`, and the SDK in its system prompt; it answers by writing a program whose
// sub-calls run through the same pipeline (validation, approval, timeouts) as direct calls would.
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createNodePtcRuntime } from '@qilin-tools/code-mode-node'
import { createWorkspaceToolkit } from '@qilin-tools/toolkit'
import OpenAI from 'openai'
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { createToolRuntime, type ToolRuntime } from 'qilin-tools'
import { fromOpenAIChatToolCalls, toOpenAIChatMessages, toOpenAITools } from 'qilin-tools/providers'

export interface AgentOptions {
  readonly client: OpenAI
  readonly model: string
  readonly runtime: ToolRuntime
  readonly task: string
  /** Model round trips before giving up. Default 8. */
  readonly maxTurns?: number
}

/** Asks the model until it answers without calling a tool; returns that answer. */
export async function runAgent({ client, model, runtime, task, maxTurns = 8 }: AgentOptions): Promise<string> {
  const prompt = runtime.prompt()
  const { tools, report } = toOpenAITools(prompt.tools)
  const system = [...prompt.sections].sort((left, right) => left.order - right.order).map((section) => section.text)
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: ['You answer questions about a workspace of files.', ...system].join('\n\n') },
    { role: 'user', content: task },
  ]
  for (let turn = 0; turn < maxTurns; turn++) {
    const completion = await client.chat.completions.create({ model, messages, tools })
    const message = completion.choices[0]?.message
    if (message === undefined) throw new Error('the model returned no choice')
    messages.push(message)
    const calls = fromOpenAIChatToolCalls(message.tool_calls, { report })
    if (calls.length === 0) return message.content ?? ''
    const results = await runtime.executeAll(calls)
    messages.push(...toOpenAIChatMessages(results, { report }))
  }
  throw new Error(`no answer after ${maxTurns} turns`)
}

/** The workspace toolkit on `root`, shown to the model in code mode. `close()` frees the sandbox pool. */
export function createAgentRuntime(root: string) {
  const ptcRuntime = createNodePtcRuntime()
  const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime })
  createWorkspaceToolkit({ root }).register(runtime)
  return { runtime, close: () => ptcRuntime.close() }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runtime, close } = createAgentRuntime(fileURLToPath(new URL('workspace', import.meta.url)))
  try {
    const answer = await runAgent({
      client: new OpenAI(),
      model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini',
      runtime,
      task: process.argv[2] ?? 'Which three files in the workspace are largest, and how big are they?',
    })
    console.log(answer)
  } finally {
    await close()
  }
}
