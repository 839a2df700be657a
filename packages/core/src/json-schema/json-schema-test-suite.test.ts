import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { compileSchema } from './compile.js'
import type { JsonSchemaNode } from './node.js'
import { SchemaCompileError } from './schema-compile-error.js'

// The shared test data sits beside the repository (`../shared`).
const SUITE = fileURLToPath(new URL('../../../../../shared/json-schema-test-suite/draft2020-12', import.meta.url))

interface SuiteCase {
  readonly description: string
  readonly data: unknown
  readonly valid: boolean
}
interface SuiteGroup {
  readonly description: string
  readonly schema: JsonSchemaNode
  readonly tests: readonly SuiteCase[]
}

/** The suite README's subsets, by the keywords a group's schema uses anywhere. */
const CORE = new Set([
  ...['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'minimum', 'maximum'],
  ...['minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'oneOf'],
  ...['description', 'default', 'title', 'examples', '$schema'],
])
const EXTENDED = new Set([
  ...CORE,
  ...['prefixItems', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'uniqueItems', 'anyOf', 'allOf', 'not'],
  ...['minProperties', 'maxProperties', 'format', '$comment', '$ref', '$defs'],
])
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'])
const SCHEMA_LISTS = new Set(['items', 'prefixItems', 'allOf', 'anyOf', 'oneOf'])
const SCHEMA_VALUES = new Set(['additionalProperties', 'items', 'not', 'propertyNames', 'contains', 'additionalItems'])

/** Every keyword used in schema positions, and whether every `$ref` is a local pointer. */
function keywordsOf(schema: unknown, found = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return found
  for (const [keyword, value] of Object.entries(schema)) {
    found.add(keyword)
    if (keyword === '$ref' && (typeof value !== 'string' || !value.startsWith('#'))) found.add('remote $ref')
    if (SCHEMA_MAPS.has(keyword) && typeof value === 'object' && value !== null) {
      for (const child of Object.values(value)) keywordsOf(child, found)
    }
    if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) for (const child of value) keywordsOf(child, found)
    if (SCHEMA_VALUES.has(keyword) && !Array.isArray(value)) keywordsOf(value, found)
  }
  return found
}

function within(schema: unknown, allowed: ReadonlySet<string>): boolean {
  return [...keywordsOf(schema)].every((keyword) => allowed.has(keyword))
}

function suiteFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(directory, entry.name)
      return entry.isDirectory() ? suiteFiles(path) : entry.name.endsWith('.json') ? [path] : []
    })
    .sort()
}

interface FileTally {
  file: string
  core: number
  corePassed: number
  extended: number
  extendedPassed: number
  supported: number
  supportedPassed: number
  total: number
}

const IDNA_GROUP = 'optional/format/hostname.json / validation of A-label (punycode) host names / '
const failures: string[] = []
const tallies: FileTally[] = suiteFiles(SUITE).map((path) => {
  const file = relative(SUITE, path)
  const isFormatFile = file.startsWith('optional/format/')
  const tally: FileTally = {
    file,
    core: 0,
    corePassed: 0,
    extended: 0,
    extendedPassed: 0,
    supported: 0,
    supportedPassed: 0,
    total: 0,
  }
  const groups = JSON.parse(readFileSync(path, 'utf8')) as SuiteGroup[]
  for (const group of groups) {
    tally.total += group.tests.length
    const inCore = typeof group.schema === 'object' && within(group.schema, CORE)
    const inExtended = within(group.schema, EXTENDED)
    let validate: ((value: unknown) => boolean) | undefined
    try {
      const compiled = compileSchema(group.schema, { assertFormats: isFormatFile })
      const closures = compileSchema(group.schema, { assertFormats: isFormatFile, codegen: false })
      // Both engines must agree: the generated code (the default) and the closure tree alone.
      validate = (value) => {
        const result = compiled.validate(value)
        if (closures.validate(value).valid !== result.valid)
          failures.push(`${file} / ${group.description}: engines disagree`)
        if (!result.valid && result.issues.some((issue) => issue.keyword === 'schema')) {
          failures.push(`${file} / ${group.description}: an issue without a keyword`)
        }
        return result.valid
      }
    } catch (error) {
      if (!(error instanceof SchemaCompileError)) throw error
      if (inExtended) failures.push(`${file} / ${group.description}: refused: ${error.message}`)
    }
    for (const test of group.tests) {
      const passed = validate !== undefined && validate(test.data) === test.valid
      if (validate !== undefined) {
        tally.supported++
        if (passed) tally.supportedPassed++
      }
      if (inCore) {
        tally.core++
        if (passed) tally.corePassed++
      }
      if (inExtended) {
        tally.extended++
        if (passed) tally.extendedPassed++
      }
      if (validate !== undefined && !passed) failures.push(`${file} / ${group.description} / ${test.description}`)
    }
  }
  return tally
})

const sum = (pick: (tally: FileTally) => number, filter: (tally: FileTally) => boolean = () => true) =>
  tallies.filter(filter).reduce((total, tally) => total + pick(tally), 0)
const isRequired = (tally: FileTally) => !tally.file.startsWith('optional/')
const isFormatFile = (tally: FileTally) => tally.file.startsWith('optional/format/')

describe('JSON-Schema-Test-Suite draft 2020-12', () => {
  it('prints the pass count per file', () => {
    const row = (tally: FileTally) =>
      `| ${tally.file} | ${tally.corePassed}/${tally.core} | ${tally.extendedPassed}/${tally.extended} | ${tally.supportedPassed}/${tally.supported} | ${tally.total} |`
    const totals: FileTally = {
      file: '**total**',
      core: sum((tally) => tally.core),
      corePassed: sum((tally) => tally.corePassed),
      extended: sum((tally) => tally.extended),
      extendedPassed: sum((tally) => tally.extendedPassed),
      supported: sum((tally) => tally.supported),
      supportedPassed: sum((tally) => tally.supportedPassed),
      total: sum((tally) => tally.total),
    }
    console.log(
      [
        '| file | core passed | extended passed | compiled (strict) passed | cases |',
        '|---|---:|---:|---:|---:|',
        ...tallies.map(row),
        row(totals),
      ].join('\n'),
    )
    if (failures.length > 0) console.log(failures.join('\n'))
    expect(totals.total).toBe(1324)
  })

  it('passes all 331 core-subset cases of the required files', () => {
    expect(sum((tally) => tally.core, isRequired)).toBe(331)
    expect(sum((tally) => tally.corePassed, isRequired)).toBe(331)
  })

  it('passes every extended-subset case outside the optional format files', () => {
    const extended = sum(
      (tally) => tally.extended,
      (tally) => !isFormatFile(tally),
    )
    expect(extended).toBe(1230 - sum((tally) => tally.extended, isFormatFile))
    expect(
      sum(
        (tally) => tally.extendedPassed,
        (tally) => !isFormatFile(tally),
      ),
    ).toBe(extended)
  })

  it('passes every case it compiles in strict mode, apart from IDNA contextual rules in hostname', () => {
    // `format: hostname` decodes xn-- labels but does not apply the IDNA 2008 contextual rules (CONTEXTJ/CONTEXTO,
    // disallowed code points); those 13 A-label cases are the only known gap.
    const idnaGap = (failure: string) => failure.startsWith(IDNA_GROUP)
    expect(failures.filter((failure) => !idnaGap(failure))).toEqual([])
    expect(failures.filter(idnaGap)).toHaveLength(13)
  })
})
