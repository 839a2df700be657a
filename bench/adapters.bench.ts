/**
 * Adapter overhead per call: `add({a, b})` through each framework adapter, invoked the way its framework invokes a
 * tool, beside calling our `runtime.execute` directly, all in one process, interleaved round by round:
 * - AI SDK: `toAISDKTools(runtime).add.execute(input, { toolCallId, messages })`.
 * - OpenAI Agents: `toOpenAIAgentsTools(runtime)[0].invoke(runContext, jsonText, { toolCall })`.
 * - LangChain: `toLangChainTools(runtime)[0].invoke(input)` and `.invoke(toolCall)` (which answers a ToolMessage).
 * - Mastra: `toMastraTools(runtime).add.execute(input, { agent: { toolCallId } })`.
 * Each framework's own tool with the same body and the same schema (no qilin) is timed too, so what a framework
 * adds by itself is not booked as ours: ours = adapter - direct execute - the framework's own tool.
 * CPU time of this process (`process.cpuUsage`) is what the goal (at most 2 µs ours) is judged on; the machine is
 * shared, so wall time is printed beside it only.
 */
import { loadavg } from 'node:os'
import { DynamicStructuredTool } from '@langchain/core/tools'
import { createTool } from '@mastra/core/tools'
import { tool as agentsTool, RunContext } from '@openai/agents'
import { tool as aiTool, type JSONSchema7, jsonSchema } from 'ai'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { passThroughSchema } from 'qilin-tools/internal/providers/framework/pass-through-schema.js'
import { toAISDKTools } from 'qilin-tools/providers/ai-sdk'
import { toLangChainTools } from 'qilin-tools/providers/langchain'
import { toMastraTools } from 'qilin-tools/providers/mastra'
import { toOpenAIAgentsTools } from 'qilin-tools/providers/openai-agents'
import { formatNs, type Measurement, markdownTable, summarize } from './measure.js'

const argumentsText = '{"a":2,"b":3}'
const input = { a: 2, b: 3 }

const add = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
  execute: ({ a, b }) => a + b,
})
const runtime = createToolRuntime()
runtime.register(add)
const schema = runtime.prompt().tools[0]!.parameters

const check = (value: unknown, expected: unknown) => {
  if (value !== expected) throw new Error(`wrong result: ${JSON.stringify(value)}`)
}

const aiSdk = toAISDKTools(runtime).add!
const agents = toOpenAIAgentsTools(runtime)[0]!
const langChain = toLangChainTools(runtime)[0]!
const mastra = toMastraTools(runtime).add!
const runContext = new RunContext({})
const agentsDetails = { toolCall: { type: 'function_call', callId: 'call-1', name: 'add', arguments: argumentsText } }
const aiOptions = { toolCallId: 'call-1', messages: [] } as never
const langChainCall = { type: 'tool_call' as const, id: 'call-1', name: 'add', args: input }

// The frameworks' own tools with the same body and the schema our adapters hand them.
const ownAISDK = aiTool({
  description: 'Add two numbers.',
  inputSchema: jsonSchema<{ a: number; b: number }>(schema as unknown as JSONSchema7),
  execute: ({ a, b }) => a + b,
})
const ownAgents = agentsTool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: schema as never,
  strict: false,
  execute: (args) => {
    const { a, b } = args as { a: number; b: number }
    return a + b
  },
})
const ownLangChain = new DynamicStructuredTool({
  name: 'add',
  description: 'Add two numbers.',
  schema: passThroughSchema(schema),
  func: async (args: unknown) => {
    const { a, b } = args as { a: number; b: number }
    return String(a + b)
  },
})
const ownMastra = createTool({
  id: 'add',
  description: 'Add two numbers.',
  inputSchema: passThroughSchema(schema),
  execute: async (args: unknown) => {
    const { a, b } = args as { a: number; b: number }
    return a + b
  },
})

type Contender = readonly [label: string, run: () => Promise<void>, batch: number]

const contenders: Contender[] = [
  [
    'direct: runtime.execute (JSON text)',
    async () => {
      const result = await runtime.execute({ id: 'call-1', name: 'add', arguments: argumentsText })
      check(result.ok && result.value, 5)
    },
    2000,
  ],
  [
    'direct: runtime.execute (object)',
    async () => {
      const result = await runtime.execute({ id: 'call-1', name: 'add', arguments: input })
      check(result.ok && result.value, 5)
    },
    2000,
  ],
  [
    'AI SDK adapter: execute',
    async () => {
      const result = (await aiSdk.execute!(input, aiOptions)) as { ok: boolean; value?: unknown }
      check(result.value, 5)
    },
    2000,
  ],
  ['AI SDK own tool(): execute', async () => check(await ownAISDK.execute!(input, aiOptions), 5), 2000],
  [
    'OpenAI Agents adapter: invoke',
    async () => check(await agents.invoke(runContext, argumentsText, agentsDetails as never), '5'),
    1000,
  ],
  ['OpenAI Agents own tool(): invoke', async () => check(await ownAgents.invoke(runContext, argumentsText), 5), 1000],
  ['LangChain adapter: invoke(args)', async () => check(await langChain.invoke(input), '5'), 200],
  ['LangChain own tool: invoke(args)', async () => check(await ownLangChain.invoke(input as never), '5'), 200],
  [
    'LangChain adapter: invoke(toolCall)',
    async () => check(((await langChain.invoke(langChainCall)) as { content: unknown }).content, '5'),
    200,
  ],
  [
    'LangChain own tool: invoke(toolCall)',
    async () => check(((await ownLangChain.invoke(langChainCall as never)) as { content: unknown }).content, '5'),
    200,
  ],
  [
    'Mastra adapter: execute',
    async () => {
      const result = (await mastra.execute!(input, { agent: { toolCallId: 'call-1' } } as never)) as { value?: unknown }
      check(result.value, 5)
    },
    1000,
  ],
  [
    'Mastra own createTool(): execute',
    async () => check(await ownMastra.execute!(input, { agent: { toolCallId: 'call-1' } } as never), 5),
    1000,
  ],
]

/** Per-call CPU and wall time over interleaved rounds: each round runs every contender for one batch. */
async function measureInterleaved(entries: readonly Contender[], rounds: number) {
  const samples = new Map(entries.map(([label]) => [label, { cpu: [] as number[], wall: [] as number[] }]))
  for (const [, run, batch] of entries) for (let index = 0; index < batch * 5; index++) await run()
  for (let round = 0; round < rounds; round++) {
    for (const [label, run, batch] of entries) {
      const cpuStart = process.cpuUsage()
      const wallStart = process.hrtime.bigint()
      for (let index = 0; index < batch; index++) await run()
      const wall = Number(process.hrtime.bigint() - wallStart) / batch
      const cpu = process.cpuUsage(cpuStart)
      samples.get(label)!.cpu.push(((cpu.user + cpu.system) * 1000) / batch)
      samples.get(label)!.wall.push(wall)
    }
  }
  return new Map(
    [...samples].map(([label, { cpu, wall }]) => [label, { cpu: summarize(cpu), wall: summarize(wall) }] as const),
  ) as Map<string, { cpu: Measurement; wall: Measurement }>
}

const loadBefore = loadavg()
const measured = await measureInterleaved(contenders, 40)
const loadAfter = loadavg()
const cpu = (label: string) => measured.get(label)!.cpu.medianNs

console.log('### Per-call time of add({a, b}) through each adapter (median CPU time; wall time beside it)\n')
console.log(
  markdownTable(
    ['path', 'CPU median', 'CPU p90', 'wall median'],
    [...measured].map(([label, { cpu: time, wall }]) => [
      label,
      formatNs(time.medianNs),
      formatNs(time.p90Ns),
      formatNs(wall.medianNs),
    ]),
  ),
)

/** Each adapter: the direct call it is measured against (the argument form it passes) and the framework's own tool. */
const adapters = [
  ['AI SDK', 'AI SDK adapter: execute', 'direct: runtime.execute (object)', 'AI SDK own tool(): execute'],
  [
    'OpenAI Agents',
    'OpenAI Agents adapter: invoke',
    'direct: runtime.execute (JSON text)',
    'OpenAI Agents own tool(): invoke',
  ],
  [
    'LangChain (args)',
    'LangChain adapter: invoke(args)',
    'direct: runtime.execute (object)',
    'LangChain own tool: invoke(args)',
  ],
  [
    'LangChain (tool call)',
    'LangChain adapter: invoke(toolCall)',
    'direct: runtime.execute (object)',
    'LangChain own tool: invoke(toolCall)',
  ],
  ['Mastra', 'Mastra adapter: execute', 'direct: runtime.execute (object)', 'Mastra own createTool(): execute'],
] as const

console.log('\n### What each adapter adds over `runtime.execute` (CPU medians)\n')
console.log(
  markdownTable(
    ['adapter', 'adapter - direct', "framework's own tool", 'ours = adapter - direct - own', 'goal ≤ 2 µs'],
    adapters.map(([name, adapter, direct, own]) => {
      const added = cpu(adapter) - cpu(direct)
      const ours = added - cpu(own)
      return [name, formatNs(added), formatNs(cpu(own)), formatNs(ours), ours <= 2000 ? 'met' : 'NOT met']
    }),
  ),
)
const loadText = (load: number[]) => load.map((value) => value.toFixed(2)).join(' ')
console.log(`\nLoad average (1, 5, 15 min): ${loadText(loadBefore)} before, ${loadText(loadAfter)} after.\n`)
