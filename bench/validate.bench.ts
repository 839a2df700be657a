/**
 * Validation speed of our JSON Schema subset against Ajv 8 (compiled, first error only) and zod 4, on the five
 * tool-argument schemas of the shared fixtures; plus one-time compile cost, ours against Ajv. Beside them, a zod 4
 * schema given as a tool's parameters: what the pipeline does per call (`runStandardValidate`: zod's own
 * `~standard.validate`, the verdict read and worded, the parsed value frozen) against zod's `safeParse` on the same
 * frozen input, with `~standard.validate` alone to show which part is the library's.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { compileSchema } from 'qilin-tools/internal/json-schema/compile.js'
import { generateValidator } from 'qilin-tools/internal/json-schema/generate-validator.js'
import type { JsonSchemaNode } from 'qilin-tools/internal/json-schema/node.js'
import { freezeParsed } from 'qilin-tools/internal/pipeline/frozen-json.js'
import { runStandardValidate } from 'qilin-tools/internal/schema/standard-validate.js'
import { z } from 'zod'
import { formatNs, markdownTable, measureSync, measureSyncInterleaved, summarize } from './measure.js'

interface Fixture {
  readonly id: string
  readonly schema: JsonSchemaNode
  readonly valid: unknown
  readonly invalid: unknown
}

const fixtures = JSON.parse(
  readFileSync(new URL('../../shared/bench-fixtures/tool-arg-schemas.json', import.meta.url), 'utf8'),
) as readonly Fixture[]

function newAjv() {
  return new Ajv2020({ allErrors: false, strict: false })
}

function timeOnce(run: () => unknown): number {
  const start = process.hrtime.bigint()
  run()
  return Number(process.hrtime.bigint() - start)
}

function ratio(ours: number, theirs: number): string {
  return `${(ours / theirs).toFixed(2)}x`
}

const validationRows: (string | number)[][] = []
const standardRows: (string | number)[][] = []
let worstStandardRatio = 0
const compileRows: (string | number)[][] = []
const worst = { ajvRatio: 0, zodRatio: 0, readyNs: 0, closuresAjvRatio: 0 }
for (const fixture of fixtures) {
  const ours = compileSchema(fixture.schema)
  // What CSP hosts get, and what code generation has to beat to be worth its code.
  const closures = compileSchema(fixture.schema, { codegen: false })
  const ajv = newAjv().compile(fixture.schema as object)
  const zod = z.fromJSONSchema(fixture.schema as never)
  for (const [label, value, expected] of [
    ['valid', fixture.valid, true],
    ['invalid', fixture.invalid, false],
  ] as const) {
    if (
      ours.validate(value).valid !== expected ||
      closures.validate(value).valid !== expected ||
      ajv(value) !== expected ||
      zod.safeParse(value).success !== expected
    ) {
      throw new Error(`${fixture.id} ${label}: validators disagree with the fixture`)
    }
    // A long warmup: on a loaded machine the optimising compiler runs late, and every contender deserves it.
    const options = { warmup: 200_000, samples: 60 }
    const oursNs = measureSync(() => ours.validate(value), options).medianNs
    const closuresNs = measureSync(() => closures.validate(value), options).medianNs
    const ajvNs = measureSync(() => ajv(value), options).medianNs
    const zodNs = measureSync(() => zod.safeParse(value), options).medianNs
    worst.ajvRatio = Math.max(worst.ajvRatio, oursNs / ajvNs)
    worst.zodRatio = Math.max(worst.zodRatio, oursNs / zodNs)
    worst.closuresAjvRatio = Math.max(worst.closuresAjvRatio, closuresNs / ajvNs)
    // A Standard Schema tool's arguments go through the library's ~standard.validate and our reading of its answer
    // (issues worded, parsed value frozen); the arguments are frozen JSON, as the pipeline holds them.
    const frozen = freezeParsed(structuredClone(value) as never)
    const [viaStandard, libraryAlone, safeParse] = measureSyncInterleaved(
      [() => runStandardValidate(zod, frozen), () => zod['~standard'].validate(frozen), () => zod.safeParse(frozen)],
      { ...options, samples: 90 },
    )
    const viaStandardNs = viaStandard!.medianNs
    const libraryAloneNs = libraryAlone!.medianNs
    const safeParseNs = safeParse!.medianNs
    worstStandardRatio = Math.max(worstStandardRatio, viaStandardNs / safeParseNs)
    standardRows.push([
      `${fixture.id} ${label}`,
      formatNs(viaStandardNs),
      formatNs(libraryAloneNs),
      formatNs(safeParseNs),
      ratio(viaStandardNs, safeParseNs),
      ratio(libraryAloneNs, safeParseNs),
    ])
    validationRows.push([
      `${fixture.id} ${label}`,
      formatNs(oursNs),
      formatNs(ajvNs),
      formatNs(zodNs),
      ratio(oursNs, ajvNs),
      ratio(oursNs, zodNs),
      formatNs(closuresNs),
      ratio(closuresNs, ajvNs),
      ratio(closuresNs, oursNs),
    ])
  }
  // Each contender compiles a fresh copy (no identity caches help), cloned outside the timed region.
  const oursCompile = summarize(
    Array.from({ length: 400 }, () => {
      const schema = structuredClone(fixture.schema)
      return timeOnce(() => compileSchema(schema))
    }),
  ).medianNs
  const ajvCompile = summarize(
    Array.from({ length: 40 }, () => {
      const instance = newAjv()
      const schema = structuredClone(fixture.schema) as object
      return timeOnce(() => instance.compile(schema))
    }),
  ).medianNs
  const generateOptions = { lenient: false, assertFormats: false, maxDepth: 64, codegen: true }
  const oursGenerate = summarize(
    Array.from({ length: 200 }, () => {
      const schema = structuredClone(fixture.schema)
      return timeOnce(() => generateValidator(schema, generateOptions))
    }),
  ).medianNs
  // Everything before full speed: compile, then the first validate, which generates the code.
  const oursReady = summarize(
    Array.from({ length: 200 }, () => {
      const schema = structuredClone(fixture.schema)
      return timeOnce(() => compileSchema(schema).validate(fixture.valid))
    }),
  ).medianNs
  worst.readyNs = Math.max(worst.readyNs, oursReady)
  compileRows.push([
    fixture.id,
    formatNs(oursCompile),
    formatNs(oursGenerate),
    formatNs(oursReady),
    formatNs(ajvCompile),
    ratio(oursReady, ajvCompile),
  ])
}

console.log('### Median time per validation (ours vs Ajv 8 compiled vs zod 4 safeParse)\n')
console.log(
  markdownTable(
    [
      'schema / input',
      'ours',
      'Ajv 8',
      'zod 4',
      'ours/Ajv',
      'ours/zod',
      'ours, closures only (codegen: false)',
      'closures only/Ajv',
      'closures only/ours',
    ],
    validationRows,
  ),
)
console.log('\n### Median time per validation of a Standard Schema (zod 4) tool: through qilin vs its own safeParse\n')
console.log(
  markdownTable(
    [
      'schema / input',
      'qilin: validate, verdict, parsed value frozen',
      "zod's ~standard.validate alone",
      'zod 4 safeParse',
      'qilin/safeParse',
      '~standard.validate/safeParse',
    ],
    standardRows,
  ),
)
console.log(
  `\nGoal: at most safeParse + 20% on every row (${worstStandardRatio <= 1.2 ? 'met' : 'MISSED'}: worst ` +
    `${worstStandardRatio.toFixed(2)}x).`,
)
console.log('\n### Median compile time per schema\n')
console.log(
  markdownTable(
    [
      'schema',
      'ours: compileSchema',
      'ours: code generation (on 1st call)',
      'ours: compile + 1st validate',
      'Ajv 8 compile',
      'ours (compile + 1st validate) / Ajv',
    ],
    compileRows,
  ),
)

const verdict = (met: boolean) => (met ? 'met' : 'MISSED')
console.log(
  `\nGoals: within 1.5x of Ajv on every row (${verdict(worst.ajvRatio <= 1.5)}: worst ${worst.ajvRatio.toFixed(2)}x), ` +
    `faster than zod on every row (${verdict(worst.zodRatio < 1)}: worst ${worst.zodRatio.toFixed(2)}x), ` +
    `compile + first validate at most 0.1 ms (${verdict(worst.readyNs <= 100_000)}: worst ${formatNs(worst.readyNs)}). ` +
    `Without code generation the worst row is ${worst.closuresAjvRatio.toFixed(2)}x Ajv.`,
)

// A registry's worth: every input and output schema of the shared MCP tool lists, compiled once each as the
// registry does (lenient) when tools are registered, against one Ajv instance compiling the same schemas. Our
// code generation is left out here: it happens per tool on its first call (the table above times it).
const toolsets = new URL('../../shared/mcp-toolsets/', import.meta.url)
const registrySchemas = readdirSync(toolsets)
  .filter((file) => file.endsWith('.json') && !file.startsWith('_'))
  .flatMap((file) => {
    const { tools } = JSON.parse(readFileSync(new URL(file, toolsets), 'utf8')) as {
      tools: { inputSchema: JsonSchemaNode; outputSchema?: JsonSchemaNode }[]
    }
    return tools.flatMap((tool) =>
      tool.outputSchema === undefined ? [tool.inputSchema] : [tool.inputSchema, tool.outputSchema],
    )
  })
function timeAll(compile: (schema: JsonSchemaNode) => unknown): number {
  const copies = registrySchemas.map((schema) => structuredClone(schema))
  return timeOnce(() => {
    for (const schema of copies) compile(schema)
  })
}
const registryOurs = summarize(
  Array.from({ length: 15 }, () => timeAll((schema) => compileSchema(schema, { lenient: true }))),
).medianNs
// Ajv's 2020 class knows no draft-07 meta-schema, which many of these declare: it compiles them without
// validating the schema first (and without `$schema`), which only makes Ajv's side cheaper.
const registryAjv = summarize(
  Array.from({ length: 3 }, () => {
    const ajv = new Ajv2020({ allErrors: false, strict: false, validateSchema: false, logger: false })
    return timeAll((schema) => {
      const { $schema: _dialect, ...rest } = schema as Record<string, unknown>
      return ajv.compile(rest)
    })
  }),
).medianNs
console.log(`\n### Compiling a registry: all ${registrySchemas.length} schemas of ../shared/mcp-toolsets\n`)
console.log(
  markdownTable(
    ['ours: compileSchema (lenient)', 'Ajv 8 compile (no meta-schema check)', 'ours/Ajv'],
    [[formatNs(registryOurs), formatNs(registryAjv), ratio(registryOurs, registryAjv)]],
  ),
)
