/**
 * What provider projections cost in tokens, and what describing dropped constraints adds.
 * Tokens are o200k_base tokens of the JSON we send (the providers render tools their own way, so this is a
 * proxy that compares variants of the same tools, not an absolute bill). Also times each projection.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { DSL_TOOL_SCHEMAS } from 'qilin-tools/internal/providers/__fixtures__/dsl-schemas.js'
import { mcpToolSchemas } from 'qilin-tools/internal/providers/__fixtures__/mcp-tool-schemas.js'
import { toAnthropicTools } from 'qilin-tools/internal/providers/anthropic/to-anthropic-tools.js'
import { toGeminiTools } from 'qilin-tools/internal/providers/gemini/to-gemini-tools.js'
import { toOpenAITools } from 'qilin-tools/internal/providers/openai/to-openai-tools.js'
import type { ToolSchema } from 'qilin-tools/internal/registry/tool-schema.js'
import { formatNs, markdownTable, measureSync } from './measure.js'

const tokens = (value: unknown) => encode(JSON.stringify(value)).length

const sets: [string, readonly ToolSchema[]][] = [['DSL fixtures', DSL_TOOL_SCHEMAS], ...mcpToolSchemas()]

type Variant = (schemas: readonly ToolSchema[], describe: boolean) => { tools: unknown[] }
const variants: [string, Variant][] = [
  [
    'openai strict',
    (schemas, describe) => toOpenAITools(schemas, { strict: true, describeDroppedConstraints: describe }),
  ],
  [
    'anthropic strict',
    (schemas, describe) => toAnthropicTools(schemas, { strict: true, describeDroppedConstraints: describe }),
  ],
  ['gemini parameters', (schemas, describe) => toGeminiTools(schemas, { describeDroppedConstraints: describe })],
]

const rows: (string | number)[][] = []
for (const [label, schemas] of sets) {
  const declared = tokens(schemas)
  const loose = tokens(toOpenAITools(schemas).tools)
  const cells: (string | number)[] = [label, schemas.length, declared, loose]
  for (const [, project] of variants) {
    const plain = tokens(project(schemas, false).tools)
    const described = tokens(project(schemas, true).tools)
    cells.push(plain, `+${described - plain} (${((100 * (described - plain)) / plain).toFixed(1)}%)`)
  }
  rows.push(cells)
}

console.log('### Tokens of the tools array (o200k_base over the JSON sent)\n')
console.log(
  markdownTable(
    [
      'tool set',
      'tools',
      'declared',
      'openai loose',
      'openai strict',
      'describe dropped',
      'anthropic strict',
      'describe dropped',
      'gemini',
      'describe dropped',
    ],
    rows,
  ),
)

const all = sets.flatMap(([, schemas]) => schemas)
console.log(`\n### Projection time for all ${all.length} tools at once\n`)
console.log(
  markdownTable(
    ['projection', 'median', 'p90'],
    [
      ['openai loose', toOpenAITools],
      ['openai strict', (schemas: readonly ToolSchema[]) => toOpenAITools(schemas, { strict: true })],
      ['anthropic strict', (schemas: readonly ToolSchema[]) => toAnthropicTools(schemas, { strict: true })],
      ['gemini parameters', toGeminiTools],
    ].map(([label, project]) => {
      const run = project as (schemas: readonly ToolSchema[]) => unknown
      const measured = measureSync(() => run(all), { batch: 5, samples: 20, warmup: 5 })
      return [label as string, formatNs(measured.medianNs), formatNs(measured.p90Ns)]
    }),
  ),
)
