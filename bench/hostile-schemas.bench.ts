/**
 * `npm run bench hostile-schemas`: host health while definition, registration, the native prompt and every
 * provider projection take issue 14's hostile schemas (a million-value enum, `$ref` fan-outs of 26 and 40 levels).
 * Each row: what came of it, its time, the worst event-loop lag a 5 ms probe saw, and RSS after a GC against the
 * baseline. Goals: lag under 100 ms (so no projection of one tool near 1 s), RSS back within 50 MB.
 */
import { z } from 'zod'
import { defineTool } from '../src/definition/define-tool.js'
import type { JsonSchemaObject } from '../src/json-schema/node.js'
import { createToolRuntime } from '../src/pipeline/create-tool-runtime.js'
import { toAnthropicTools } from '../src/providers/anthropic/to-anthropic-tools.js'
import { toGeminiTools } from '../src/providers/gemini/to-gemini-tools.js'
import { toOpenAITools } from '../src/providers/openai/to-openai-tools.js'
import { refFanOut } from '../src/ptc/ts-sdk/__fixtures__/hostile-tools.js'
import { jsonSchema } from '../src/schema/json-schema-spec.js'
import { markdownTable } from './measure.js'

const MAX_LAG_MS = 100
const MAX_RSS_GROWTH_MB = 50
const million = Array.from({ length: 1_000_000 }, (_, index) => `value-${index}`)
const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file of the workspace.',
  parameters: { path: { type: 'string', required: true, description: 'Relative path' } },
  execute: () => 'ok',
})

/** A runtime showing read_file and `parameters` as an MCP server's tool would be registered; its native prompt. */
function nativePrompt(parameters: JsonSchemaObject) {
  const runtime = createToolRuntime()
  runtime.register(readFile)
  runtime.register(
    defineTool({ name: 'evil', description: 'x', parameters: jsonSchema(parameters), execute: () => 'ok' }),
  )
  return runtime.prompt()
}

const projectors = {
  'openai strict': (schemas: ReturnType<typeof nativePrompt>['tools']) => toOpenAITools(schemas, { strict: true }),
  'anthropic strict': (schemas: ReturnType<typeof nativePrompt>['tools']) =>
    toAnthropicTools(schemas, { strict: true }),
  gemini: (schemas: ReturnType<typeof nativePrompt>['tools']) => toGeminiTools(schemas),
  'gemini json schema': (schemas: ReturnType<typeof nativePrompt>['tools']) =>
    toGeminiTools(schemas, { field: 'parametersJsonSchema' }),
}

/** One row per projector: the native prompt's tools, projected. */
function projected(label: string, parameters: JsonSchemaObject): Record<string, () => string> {
  const schemas = nativePrompt(parameters).tools
  return Object.fromEntries(
    Object.entries(projectors).map(([name, project]) => [
      `${label}: native prompt, then ${name}`,
      () => {
        const projection = project(schemas)
        return projection.report.tools.map((tool) => `${tool.name} ${tool.status}`).join(', ')
      },
    ]),
  )
}

const scenarios: Record<string, () => string> = {
  'DSL enum of 1,000,000': () => {
    try {
      defineTool({
        name: 'evil',
        description: 'x',
        parameters: { c: { type: 'string', enum: million } },
        execute: () => 'ok',
      } as never)
      return 'defined'
    } catch (error) {
      return `refused: ${(error as Error).message.slice(0, 60)}…`
    }
  },
  'zod enum of 4,097': () => {
    try {
      defineTool({
        name: 'evil',
        description: 'x',
        parameters: z.object({ c: z.enum(million.slice(0, 4097) as [string]) }),
        execute: () => 'ok',
      })
      return 'defined'
    } catch {
      return 'refused'
    }
  },
  'MCP-style enum of 1,000,000: define, register, native prompt': () => {
    const prompt = nativePrompt({ type: 'object', properties: { c: { type: 'string', enum: million } } })
    return `kept ${prompt.tools.map((tool) => tool.name).join(', ')}; omitted ${prompt.omitted?.map((tool) => tool.name).join(', ')}`
  },
  ...projected('26-level anyOf/$ref fan-out', refFanOut(26)),
  ...projected('40-level $defs fan-out', refFanOut(40)),
}

async function worstLag(work: () => string): Promise<{ outcome: string; ms: number; lag: number }> {
  let worst = 0
  let last = performance.now()
  const probe = setInterval(() => {
    const now = performance.now()
    worst = Math.max(worst, now - last - 5)
    last = now
  }, 5)
  await new Promise((resolve) => setTimeout(resolve, 20))
  const started = performance.now()
  const outcome = work()
  const ms = performance.now() - started
  await new Promise((resolve) => setTimeout(resolve, 20))
  clearInterval(probe)
  return { outcome, ms, lag: worst }
}

const gc = (globalThis as { gc?: () => void }).gc
const residentMb = () => {
  gc?.()
  return process.memoryUsage().rss / (1024 * 1024)
}
const rows: (string | number)[][] = []
let failed = false
for (const [name, work] of Object.entries(scenarios)) {
  const before = residentMb()
  const { outcome, ms, lag } = await worstLag(work)
  const growth = residentMb() - before
  const met = lag < MAX_LAG_MS && growth < MAX_RSS_GROWTH_MB
  failed ||= !met
  rows.push([
    name,
    outcome,
    `${ms.toFixed(1)} ms`,
    `${lag.toFixed(1)} ms`,
    `${growth.toFixed(1)} MB`,
    met ? 'yes' : 'no',
  ])
}
console.log(markdownTable(['attack', 'outcome', 'time', 'worst lag', 'RSS after GC vs before', 'goals met'], rows))
process.exit(failed ? 1 : 0)
