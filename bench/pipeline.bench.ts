/**
 * Per-call cost of a trivial validated call, `add({a, b})` with its arguments as JSON text, through the whole pipeline
 * (with 8 listeners, 2 per event, and with none) beside the peers' equivalent paths, measured in one process:
 * - Vercel AI SDK 7: its `parseToolCall` (dist/index.js, `src/generate-text/parse-tool-call.ts`) is not exported, so
 *   `aiSdkParseToolCall` below replays its no-repair path step for step with the public `asSchema` and
 *   `safeParseJSON` of `@ai-sdk/provider-utils`; the result is then run by the public `executeTool`, drained as
 *   `generateText` drains it.
 * - OpenAI Agents JS: `tool({ parameters: zod }).invoke(runContext, jsonText)`.
 * - LangChain.js: `tool(fn, { schema: zod }).invoke(JSON.parse(jsonText))`.
 * - Floor: `JSON.parse` + the same compiled validator our pipeline uses + the call, in an async function.
 * Then registry lookup cost with 10,000 tools across 100 agents against 100 tools in one agent.
 *
 * The machine is shared (2 cores, many processes), so wall time mostly measures how often this process was
 * descheduled. Each contender is therefore timed in CPU time of this process (`process.cpuUsage`, which also counts
 * GC threads) as well as wall time; the goals are judged on CPU time. Contenders run interleaved, round by round,
 * so a burst of load hits all of them alike.
 */

import { loadavg } from 'node:os'
import { asSchema, executeTool, safeParseJSON } from '@ai-sdk/provider-utils'
import { tool as langchainTool } from '@langchain/core/tools'
import { tool as openaiTool, RunContext } from '@openai/agents'
import { trace } from '@opentelemetry/api'
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base'
import { tool as aiTool } from 'ai'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import type { AnyToolDefinition } from 'qilin-tools/internal/definition/tool-definition.js'
import type { JsonSchemaObject } from 'qilin-tools/internal/json-schema/node.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { validatorFor } from 'qilin-tools/internal/registry/registry-entry.js'
import { instrumentOpenTelemetry } from 'qilin-tools/internal/telemetry/instrument-open-telemetry.js'
import { z } from 'zod'
import { formatNs, type Measurement, markdownTable, measureSync, summarize } from './measure.js'

const argumentsText = '{"a":2,"b":3}'
const options = { batch: 1000, samples: 40, warmup: 20_000 }

const add = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
  execute: ({ a, b }) => a + b,
})

function ours(listeners: boolean) {
  const runtime = createToolRuntime()
  runtime.register(add)
  if (listeners) {
    for (let index = 0; index < 2; index++) {
      runtime.on('tools/pre-execute', () => undefined)
      runtime.on('tools/execute', (_exec, next) => next())
      runtime.on('tools/post-execute', () => undefined)
      runtime.on('tools/result', () => undefined)
    }
  }
  const call = { id: 'call-1', name: 'add', arguments: argumentsText }
  return async () => {
    const result = await runtime.execute(call)
    if (!result.ok || result.value !== 5) throw new Error('wrong result')
  }
}

function floor() {
  const validator = validatorFor(add.parameters)
  const body = ({ a, b }: { a: number; b: number }) => a + b
  const run = async (text: string) => {
    const args = JSON.parse(text)
    if (!validator.validate(args).valid) throw new Error('invalid')
    return body(args)
  }
  return async () => {
    if ((await run(argumentsText)) !== 5) throw new Error('wrong result')
  }
}

/** `parseToolCall` → `doParseToolCall` → `refineParsedToolCallInput` of AI SDK 7, without the repair branch. */
async function aiSdkParseToolCall(toolCall: AiSdkToolCall, tools: Record<string, { inputSchema: unknown }>) {
  return await aiSdkRefineParsedToolCallInput(await aiSdkDoParseToolCall(toolCall, tools))
}

interface AiSdkToolCall {
  toolCallId: string
  toolName: string
  input: string
}

async function aiSdkDoParseToolCall(toolCall: AiSdkToolCall, tools: Record<string, { inputSchema: unknown }>) {
  const tool = Object.hasOwn(tools, toolCall.toolName) ? tools[toolCall.toolName] : undefined
  if (tool == null) throw new Error(`no such tool ${toolCall.toolName}`)
  const schema = asSchema(tool.inputSchema as never) as Parameters<typeof safeParseJSON>[0]['schema']
  const parseResult =
    toolCall.input.trim() === ''
      ? { success: true as const, value: {} as unknown }
      : await safeParseJSON({ text: toolCall.input, schema })
  if (parseResult.success === false) throw parseResult.error
  const parsed = {
    type: 'tool-call',
    toolCallId: toolCall.toolCallId,
    toolName: toolCall.toolName,
    input: parseResult.value,
    providerExecuted: undefined,
    providerMetadata: undefined,
  }
  Object.defineProperty(parsed, inputSchemaInputSymbol, { value: parseResult.value })
  return parsed
}

/** No refinement is configured, so it hands the call back, as AI SDK's does. */
async function aiSdkRefineParsedToolCallInput<Call>(toolCall: Call): Promise<Call> {
  return toolCall
}

const inputSchemaInputSymbol = Symbol('ai-sdk-tool-call-input-schema-input')

function aiSdk() {
  const addTool = aiTool({
    description: 'Add two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => a + b,
  })
  const tools = { add: addTool }
  const toolCall = { toolCallId: 'call-1', toolName: 'add', input: argumentsText }
  const executionOptions = { toolCallId: 'call-1', messages: [], context: {} } as never
  return async () => {
    const parsed = await aiSdkParseToolCall(toolCall, tools)
    let output: unknown
    for await (const part of executeTool({
      tool: addTool as never,
      input: parsed.input as never,
      options: executionOptions,
    })) {
      if (part.type === 'final') output = part.output
    }
    if (output !== 5) throw new Error('wrong result')
  }
}

function openAiAgents() {
  const addTool = openaiTool({
    name: 'add',
    description: 'Add two numbers.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => a + b,
  })
  const context = new RunContext()
  return async () => {
    const output = await addTool.invoke(context, argumentsText)
    if (Number(output) !== 5) throw new Error('wrong result')
  }
}

function langChain() {
  const addTool = langchainTool(async ({ a, b }: { a: number; b: number }) => a + b, {
    name: 'add',
    description: 'Add two numbers.',
    schema: z.object({ a: z.number(), b: z.number() }),
  })
  return async () => {
    const output = await addTool.invoke(JSON.parse(argumentsText))
    if (Number(output) !== 5) throw new Error('wrong result')
  }
}

const contenders: [string, () => () => Promise<void>, { batch?: number; samples?: number; warmup?: number }][] = [
  ['qilin-tools, 8 listeners (2 per event)', () => ours(true), options],
  ['qilin-tools, no listeners', () => ours(false), options],
  ['hand-written floor (JSON.parse + compiled validator + call)', floor, options],
  ['Vercel AI SDK 7 (parseToolCall replayed + executeTool)', aiSdk, options],
  ['OpenAI Agents JS (tool().invoke)', openAiAgents, options],
  ['LangChain.js (tool().invoke)', langChain, { batch: 100 }],
]

/** Per-call CPU and wall time over interleaved rounds: each round runs every contender for one batch. */
async function measureInterleaved(
  entries: readonly (readonly [string, () => Promise<void>, number])[],
  rounds: number,
): Promise<Map<string, { cpu: Measurement; wall: Measurement }>> {
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
  return new Map([...samples].map(([label, { cpu, wall }]) => [label, { cpu: summarize(cpu), wall: summarize(wall) }]))
}

const entries = contenders.map(
  ([label, make, measureOptions]) => [label, make(), measureOptions.batch ?? 2000] as const,
)
const loadBefore = loadavg()
const measured = await measureInterleaved(entries, 80)
const loadAfter = loadavg()
const cpuOf = (index: number) => measured.get(contenders[index]![0])!.cpu.medianNs
const aiSdkTime = cpuOf(3)
const floorTime = cpuOf(2)
console.log('### Per-call time of add({a, b}) from JSON text (median CPU time; wall time beside it)\n')
console.log(
  markdownTable(
    ['path', 'CPU median', 'CPU p90', 'wall median', 'vs AI SDK (CPU)', 'vs floor (CPU)'],
    [...measured].map(([label, { cpu, wall }]) => [
      label,
      formatNs(cpu.medianNs),
      formatNs(cpu.p90Ns),
      formatNs(wall.medianNs),
      `${(cpu.medianNs / aiSdkTime).toFixed(2)}x`,
      `${(cpu.medianNs / floorTime).toFixed(2)}x`,
    ]),
  ),
)
const withListeners = cpuOf(0)
console.log(
  `\nGoals: below half of the AI SDK (${withListeners < aiSdkTime / 2 ? 'met' : 'NOT met'}: ` +
    `${(withListeners / aiSdkTime).toFixed(2)}x), within 4x of the floor (${withListeners <= floorTime * 4 ? 'met' : 'NOT met'}: ` +
    `${(withListeners / floorTime).toFixed(2)}x).`,
)
const loadText = (load: number[]) => load.map((value) => value.toFixed(2)).join(' ')
console.log(`Load average (1, 5, 15 min): ${loadText(loadBefore)} before, ${loadText(loadAfter)} after.\n`)

// Lookup cost must depend on the caller's scope only, not on tools registered elsewhere.
const sharedParameters: JsonSchemaObject = add.parameters
const plainTool = (name: string): AnyToolDefinition =>
  Object.freeze({
    name,
    description: `Tool ${name}.`,
    parameters: sharedParameters,
    execute: ({ a, b }: { a: number; b: number }) => a + b,
  })

function populated(agents: number, toolsPerAgent: number) {
  const runtime = createToolRuntime()
  for (let agent = 0; agent < agents; agent++) {
    const view = runtime.agent(`agent-${agent}`)
    for (let index = 0; index < toolsPerAgent; index++) view.register(plainTool(`tool_${agent}_${index}`))
  }
  const target = runtime.agent('agent-0')
  return { target, call: { id: 'lookup', name: 'tool_0_50', arguments: argumentsText } }
}

const small = populated(1, 100)
const large = populated(100, 100)
const lookups = await measureInterleaved(
  [
    ['100 tools (1 agent)', () => small.target.execute(small.call).then(() => undefined), 1000],
    ['10,000 tools (100 agents)', () => large.target.execute(large.call).then(() => undefined), 1000],
  ],
  40,
)
const rows = [
  ['100 tools (1 agent)', small],
  ['10,000 tools (100 agents)', large],
].map(([label, setup]) => {
  const { target } = setup as typeof small
  const schemas = measureSync(() => target.schemas(), { batch: 10_000, samples: 30 })
  const execute = lookups.get(label as string)!.cpu
  return [label as string, formatNs(schemas.medianNs), formatNs(execute.medianNs), target.schemas().length]
})
console.log("### Lookup in one agent's scope (schemas() wall time; execute CPU time)\n")
console.log(markdownTable(['registry', 'schemas()', 'execute (lookup + call)', 'visible to the agent'], rows))

// OpenTelemetry: off is the plain runtime (nothing is installed until instrumentOpenTelemetry is called); on, every
// call makes a real sdk-trace-base span handed to an exporter that drops it.
const droppingExporter: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
}
const tracingProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(droppingExporter)] })
// What the SDK's docs recommend beyond debugging: spans exported in batches (here every 512, as the default allows).
const batchingProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(droppingExporter)] })
// A call its sampler leaves out: what each unsampled call costs when a host samples a share of its traces.
const unsampledProvider = new BasicTracerProvider({
  sampler: new AlwaysOffSampler(),
  spanProcessors: [new SimpleSpanProcessor(droppingExporter)],
})

function traced(tracer: 'none' | 'api' | 'sdk' | 'sdk-batch' | 'sdk-unsampled') {
  const runtime = createToolRuntime()
  runtime.register(add)
  // 'api': no SDK registered, so the API's own no-op tracer: what the instrumentation itself costs.
  if (tracer === 'api') instrumentOpenTelemetry(runtime, { tracer: trace.getTracer('bench') })
  if (tracer === 'sdk') instrumentOpenTelemetry(runtime, { tracer: tracingProvider.getTracer('bench') })
  if (tracer === 'sdk-batch') instrumentOpenTelemetry(runtime, { tracer: batchingProvider.getTracer('bench') })
  if (tracer === 'sdk-unsampled') instrumentOpenTelemetry(runtime, { tracer: unsampledProvider.getTracer('bench') })
  const call = { id: 'call-1', name: 'add', arguments: argumentsText }
  return async () => {
    const result = await runtime.execute(call)
    if (!result.ok || result.value !== 5) throw new Error('wrong result')
  }
}

// The SDK's own share of the third row: the same span with the same exporter, outside any pipeline.
const sdkTracer = tracingProvider.getTracer('bench')
const spanAlone = async () => {
  sdkTracer.startSpan('execute_tool add', { attributes: { 'gen_ai.tool.name': 'add' } }).end()
}

/** The five attributes our instrumentation gives the span, made per call as it makes them. */
const spanAttributes = () => ({
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': 'add',
  'gen_ai.tool.call.id': 'call-1',
  'gen_ai.tool.type': 'function',
  'gen_ai.tool.description': 'Add two numbers.',
})

/** The same span our instrumentation asks for (name, kind, the five attributes), with nothing of ours around it. */
const sameSpanAlone = async () => {
  sdkTracer.startSpan('execute_tool add', { kind: 0, attributes: spanAttributes() }).end()
}

// How the SDK's own cost depends on how it is used: attributes given after the start (the SDK sanitizes those given
// at the start more than once, but only those reach a sampler), and the batching processor.
const sameSpanAttributesAfterStart = async () => {
  const span = sdkTracer.startSpan('execute_tool add', { kind: 0 })
  span.setAttributes(spanAttributes())
  span.end()
}
const batchTracer = batchingProvider.getTracer('bench')
const sameSpanBatched = async () => {
  batchTracer.startSpan('execute_tool add', { kind: 0, attributes: spanAttributes() }).end()
}

const tracing = await measureInterleaved(
  [
    ['instrumentation off (no listener installed)', traced('none'), 2000],
    ['instrumentOpenTelemetry, API no-op tracer (no SDK)', traced('api'), 2000],
    ['instrumentOpenTelemetry, sdk-trace-base, dropping exporter', traced('sdk'), 2000],
    ['sdk-trace-base alone: one span started and ended, no pipeline', spanAlone, 2000],
    ['sdk-trace-base alone: the span we make (same name, kind, 5 attributes), no pipeline', sameSpanAlone, 2000],
    ['sdk-trace-base alone: the span we make, its attributes set after the start', sameSpanAttributesAfterStart, 2000],
    ['instrumentOpenTelemetry, sdk-trace-base, BatchSpanProcessor, dropping exporter', traced('sdk-batch'), 2000],
    ['sdk-trace-base alone: the span we make, BatchSpanProcessor', sameSpanBatched, 2000],
    ['instrumentOpenTelemetry, sdk-trace-base, a sampler that records nothing', traced('sdk-unsampled'), 2000],
  ],
  60,
)
const [offTime, apiTime, onTime, , sameSpanTime, , batchedTime, sameSpanBatchedTime, unsampledTime] = [
  ...tracing.values(),
].map(({ cpu }) => cpu.medianNs) as [number, number, number, number, number, number, number, number, number]
console.log('\n### OpenTelemetry spans on add({a, b}) (median CPU time; wall time beside it)\n')
console.log(
  markdownTable(
    ['path', 'CPU median', 'CPU p90', 'wall median', 'added per call (CPU)'],
    [...tracing].map(([label, { cpu, wall }]) => [
      label,
      formatNs(cpu.medianNs),
      formatNs(cpu.p90Ns),
      formatNs(wall.medianNs),
      label.startsWith('sdk-trace-base alone') ? '—' : formatNs(cpu.medianNs - offTime),
    ]),
  ),
)
const verdict = (ns: number) => `${ns <= 1500 ? 'met' : 'NOT met'}: ${formatNs(ns)}`
console.log(
  `\nGoal: at most 1.5 µs added per call. With the API's no-op tracer (${verdict(apiTime - offTime)}). With ` +
    `sdk-trace-base and a dropping exporter (${verdict(onTime - offTime)}), of which the SDK's own span costs ` +
    `${formatNs(sameSpanTime)} and the instrumentation around it ${formatNs(onTime - offTime - sameSpanTime)}.`,
)
console.log(
  `With a BatchSpanProcessor instead: ${formatNs(batchedTime - offTime)} added, of which the SDK's span costs ` +
    `${formatNs(sameSpanBatchedTime)} and the instrumentation around it ` +
    `${formatNs(batchedTime - offTime - sameSpanBatchedTime)}. A call its sampler leaves out: ` +
    `${formatNs(unsampledTime - offTime)} added.`,
)
