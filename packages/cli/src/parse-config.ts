import { CliError } from './cli-error.js'
import type { QilinConfig } from './config.js'
import { CONFIG_FIELDS, type ConfigField, type ConfigShape, type ConfigShapeKind } from './config-fields.js'
import { checkOAuthFields } from './mcp-oauth-options.js'

/** Checks one value at `field`; a problem goes to `report`, which throws. */
type Check = (value: unknown, field: string, report: Report) => void
type Report = (field: string, problem: string) => never

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const describe = (value: unknown) =>
  Array.isArray(value) ? 'an array' : value === null ? 'null' : JSON.stringify(value)

/** The path of `key` inside `field`; the top level is the empty path. */
const member = (field: string, key: string) => (field === '' ? key : `${field}.${key}`)

const fieldsCheck =
  (fields: Readonly<Record<string, ConfigField>>, required: readonly string[]): Check =>
  (value, field, report) => {
    if (!isRecord(value)) report(field, `must be an object (got ${describe(value)})`)
    const record = value as Record<string, unknown>
    for (const name of required) if (!(name in record)) report(member(field, name), 'is required')
    for (const [key, item] of Object.entries(record)) {
      const known = Object.hasOwn(fields, key) ? fields[key] : undefined
      if (known === undefined)
        return report(member(field, key), `is not a known field (known: ${Object.keys(fields).join(', ')})`)
      checkOf(known.shape)(item, member(field, key), report)
    }
  }

type ShapeOf<Kind extends ConfigShapeKind> = Extract<ConfigShape, { kind: Kind }>

/** How each kind of shape is checked; the catalog and the JSON Schema read the same shapes. */
const checks: { readonly [Kind in ConfigShapeKind]: (shape: ShapeOf<Kind>) => Check } = {
  string: () => (value, field, report) => {
    if (typeof value !== 'string' || value === '') report(field, `must be a non-empty string (got ${describe(value)})`)
  },
  boolean: () => (value, field, report) => {
    if (typeof value !== 'boolean') report(field, `must be true or false (got ${describe(value)})`)
  },
  positiveInteger: () => (value, field, report) => {
    if (!Number.isInteger(value) || (value as number) < 1)
      report(field, `must be a positive integer (got ${describe(value)})`)
  },
  oneOf:
    ({ values }) =>
    (value, field, report) => {
      if (typeof value !== 'string' || !values.includes(value)) {
        report(field, `must be one of ${values.join(', ')} (got ${describe(value)})`)
      }
    },
  stringList: () => (value, field, report) => {
    if (!Array.isArray(value)) report(field, `must be an array of strings (got ${describe(value)})`)
    for (const [index, item] of (value as unknown[]).entries()) {
      if (typeof item !== 'string') report(`${field}[${index}]`, `must be a string (got ${describe(item)})`)
    }
  },
  recordOf: ({ item }) => {
    const check = checkOf(item)
    return (value, field, report) => {
      if (!isRecord(value)) report(field, `must be an object (got ${describe(value)})`)
      for (const [key, entry] of Object.entries(value as Record<string, unknown>))
        check(entry, member(field, key), report)
    }
  },
  object: ({ fields, required }) => fieldsCheck(fields, required ?? []),
  offOr: ({ shape }) => {
    const check = checkOf(shape)
    return (value, field, report) => {
      if (value === false) return
      if (!isRecord(value)) return report(field, `must be false or an object (got ${describe(value)})`)
      check(value, field, report)
    }
  },
  either: ({ field: marker, when, otherwise }) => {
    const whenCheck = checkOf(when)
    const otherwiseCheck = checkOf(otherwise)
    return (value, field, report) =>
      (isRecord(value) && marker in value ? whenCheck : otherwiseCheck)(value, field, report)
  },
}

function checkOf(shape: ConfigShape): Check {
  return (checks[shape.kind] as (shape: ConfigShape) => Check)(shape)
}

const topLevel = fieldsCheck(CONFIG_FIELDS, [])

/** Parses `qilin.config.json` text; a mistake becomes a `CliError` naming the file and the field. */
export function parseConfig(text: string, file: string): QilinConfig {
  const report: Report = (field, problem) => {
    throw new CliError(`${file}: "${field}" ${problem}`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new CliError(`${file}: not valid JSON (${(error as Error).message})`)
  }
  if (!isRecord(value)) throw new CliError(`${file}: must hold a JSON object (got ${describe(value)})`)
  topLevel(value, '', report)
  checkOAuthFields(value as QilinConfig, report)
  return value as QilinConfig
}
