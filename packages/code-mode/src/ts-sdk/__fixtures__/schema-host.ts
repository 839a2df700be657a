/**
 * A library host shown one hostile tool schema: `node --expose-gc --no-node-snapshot --import tsx schema-host.ts
 * <scenario>` registers the hostile tool beside an ordinary one, builds what the model sees (the code-mode prompt
 * or a provider projection) while a 5 ms probe timer measures event-loop lag and RSS is sampled, and prints one JSON
 * line (`SchemaHostReport`). The parent asserts on that line and on the exit code, so an attack that takes the
 * process down is seen as such instead of crashing the test worker.
 */

import { createNodePtcRuntime } from '@qilin-tools/code-mode-node/internal/create-node-ptc-runtime.js'
import { presentPython } from '@qilin-tools/code-mode-python/internal/present-python.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import type { JsonSchemaObject } from 'qilin-tools/internal/json-schema/node.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { toAnthropicTools } from 'qilin-tools/internal/providers/anthropic/to-anthropic-tools.js'
import { toGeminiTools } from 'qilin-tools/internal/providers/gemini/to-gemini-tools.js'
import { toOpenAITools } from 'qilin-tools/internal/providers/openai/to-openai-tools.js'
import type { ToolSchema } from 'qilin-tools/internal/registry/tool-schema.js'
import { jsonSchema } from 'qilin-tools/internal/schema/json-schema-spec.js'
import { defaultPtcLimits } from '../../ptc-limits.js'
import { hugeEnum, readFileTool, refFanOut } from './hostile-tools.js'

export interface SchemaHostReport {
  readonly scenario: string
  /** What the scenario found, for the parent to assert on (omitted tools, statuses, program results). */
  readonly result: unknown
  /** The longest a probe tick came late, by the wall clock: what other work on the host waited. */
  readonly lagMaxMs: number
  /** The same, counting only CPU time this process spent during the late tick (other processes share the cores). */
  readonly lagBusyMs: number
  readonly rssBaselineMb: number
  readonly rssPeakMb: number
  readonly rssAfterMb: number
  /** Time the scenario's work took, the probe aside. */
  readonly elapsedMs: number
}

export const SCHEMA_HOST_SCENARIOS = [
  'prompt-fan-out',
  'prompt-enum',
  'python-fan-out',
  'python-enum',
  'gemini-fan-out',
  'providers-fan-out',
  'providers-enum',
] as const
export type SchemaHostScenario = (typeof SCHEMA_HOST_SCENARIOS)[number]

const PROBE_MS = 5
const MB = 1024 * 1024

const readFileSchema: ToolSchema = {
  name: readFileTool.name,
  description: readFileTool.description,
  parameters: readFileTool.parameters,
}

/**
 * A TypeScript runtime with the hostile tool registered the way MCP intake registers one, its JSON Schema as is.
 * Registering is set-up; what is measured is building the prompt and running a program against the rest.
 */
function promptScenario(parameters: JsonSchemaObject): () => Promise<unknown> {
  const ptc = createNodePtcRuntime({ poolSize: 0 })
  const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime: ptc })
  runtime.register(
    defineTool({
      name: 'read_file',
      description: readFileTool.description,
      parameters: jsonSchema(readFileTool.parameters),
      execute: () => ({ text: 'hello' }),
    }),
  )
  runtime.register(
    defineTool({ name: 'evil', description: 'Looks harmless.', parameters: jsonSchema(parameters), execute: () => 1 }),
  )
  return async () => {
    try {
      const prompt = runtime.prompt()
      const sdk = prompt.sections.find((section) => section.id === 'tools:sdk')?.text ?? ''
      const code = 'const file = await tools.read_file({ path: "a.txt" }); return file.text'
      const run = await runtime.execute({
        id: 'run',
        name: 'run_code',
        arguments: { code, description: 'Read a file' },
      })
      return { omitted: prompt.omitted ?? [], sdk, run: { ok: run.ok, value: run.ok ? run.value : null } }
    } finally {
      await ptc.close()
    }
  }
}

function pythonScenario(parameters: JsonSchemaObject): () => unknown {
  const hostile = { name: 'evil', description: 'Looks harmless.', parameters }
  return () => {
    const presentation = presentPython([readFileTool, hostile], 'ptc', defaultPtcLimits)
    const sdk = presentation.sections.find((section) => section.id === 'tools:sdk')?.text ?? ''
    return { omitted: presentation.omitted ?? [], sdk }
  }
}

function providersScenario(parameters: JsonSchemaObject, providers: readonly string[]): () => unknown {
  const schemas: ToolSchema[] = [readFileSchema, { name: 'evil', description: 'Looks harmless.', parameters }]
  const projectors = {
    openai: () => toOpenAITools(schemas, { strict: true }),
    anthropic: () => toAnthropicTools(schemas, { strict: true }),
    gemini: () => toGeminiTools(schemas),
  } as const
  return () =>
    providers.map((provider) => {
      const projection = projectors[provider as keyof typeof projectors]()
      return {
        provider,
        statuses: projection.report.tools.map((tool) => [tool.name, tool.status, tool.warnings.at(-1) ?? '']),
        bytes: JSON.stringify(projection.tools).length,
      }
    })
}

/** Each scenario prepares (the hostile schema built and registered, unmeasured) and returns the work to measure. */
const scenarios: Record<SchemaHostScenario, () => () => unknown> = {
  'prompt-fan-out': () => promptScenario(refFanOut(26)),
  'prompt-enum': () => promptScenario(hugeEnum(1_000_000)),
  'python-fan-out': () => pythonScenario(refFanOut(26)),
  'python-enum': () => pythonScenario(hugeEnum(1_000_000)),
  'gemini-fan-out': () => providersScenario(refFanOut(40), ['gemini']),
  'providers-fan-out': () => providersScenario(refFanOut(40), ['openai', 'anthropic', 'gemini']),
  'providers-enum': () => providersScenario(hugeEnum(1_000_000), ['openai', 'anthropic', 'gemini']),
}

const collect = (globalThis as { gc?: () => void }).gc ?? (() => {})
const rss = () => process.memoryUsage().rss / MB

async function main(scenario: SchemaHostScenario): Promise<SchemaHostReport> {
  // Warm the modules and the JIT on harmless input first, so the baseline is the host's, not its start-up.
  providersScenario(readFileTool.parameters, ['openai', 'anthropic', 'gemini'])()
  pythonScenario(readFileTool.parameters)()
  const work = scenarios[scenario]()
  collect()
  const rssBaselineMb = rss()
  let rssPeakMb = rssBaselineMb
  let lagMaxMs = 0
  let lagBusyMs = 0
  let expected = performance.now() + PROBE_MS
  let cpu = process.cpuUsage()
  const probe = setInterval(() => {
    const now = performance.now()
    const spent = process.cpuUsage(cpu)
    cpu = process.cpuUsage()
    const lag = now - expected
    lagMaxMs = Math.max(lagMaxMs, lag)
    lagBusyMs = Math.max(lagBusyMs, Math.min(lag, (spent.user + spent.system) / 1000))
    expected = now + PROBE_MS
    rssPeakMb = Math.max(rssPeakMb, rss())
  }, PROBE_MS)
  const started = performance.now()
  const result = await work()
  const elapsedMs = performance.now() - started
  await new Promise((resolve) => setTimeout(resolve, 4 * PROBE_MS))
  clearInterval(probe)
  rssPeakMb = Math.max(rssPeakMb, rss())
  collect()
  return { scenario, result, lagMaxMs, lagBusyMs, rssBaselineMb, rssPeakMb, rssAfterMb: rss(), elapsedMs }
}

const scenario = process.argv[2] as SchemaHostScenario
if (SCHEMA_HOST_SCENARIOS.includes(scenario)) {
  main(scenario).then(
    (report) => process.stdout.write(`${JSON.stringify(report)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
      process.exitCode = 1
    },
  )
}
