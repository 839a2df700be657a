/**
 * Validation speed of our JSON Schema subset against Ajv 8 (compiled, first error only) and zod 4, on the five
 * tool-argument schemas of the shared fixtures; plus one-time compile cost, ours against Ajv.
 */
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { z } from 'zod'
import { compileSchema } from '../src/json-schema/compile.js'
import { generateValidator } from '../src/json-schema/generate-validator.js'
import type { JsonSchemaNode } from '../src/json-schema/node.js'
import { formatNs, markdownTable, measureSync, summarize } from './measure.js'

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
const compileRows: (string | number)[][] = []
for (const fixture of fixtures) {
  const ours = compileSchema(fixture.schema)
  const ajv = newAjv().compile(fixture.schema as object)
  const zod = z.fromJSONSchema(fixture.schema as never)
  for (const [label, value, expected] of [
    ['valid', fixture.valid, true],
    ['invalid', fixture.invalid, false],
  ] as const) {
    if (
      ours.validate(value).valid !== expected ||
      ajv(value) !== expected ||
      zod.safeParse(value).success !== expected
    ) {
      throw new Error(`${fixture.id} ${label}: validators disagree with the fixture`)
    }
    // A long warmup: on a loaded machine the optimising compiler runs late, and every contender deserves it.
    const options = { warmup: 200_000, samples: 60 }
    const oursNs = measureSync(() => ours.validate(value), options).medianNs
    const ajvNs = measureSync(() => ajv(value), options).medianNs
    const zodNs = measureSync(() => zod.safeParse(value), options).medianNs
    validationRows.push([
      `${fixture.id} ${label}`,
      formatNs(oursNs),
      formatNs(ajvNs),
      formatNs(zodNs),
      ratio(oursNs, ajvNs),
      ratio(oursNs, zodNs),
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
console.log(markdownTable(['schema / input', 'ours', 'Ajv 8', 'zod 4', 'ours/Ajv', 'ours/zod'], validationRows))
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
