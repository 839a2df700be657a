import { CliError } from './cli-error.js'
import type { QilinConfig } from './config.js'

/** Checks one value at `field`; a problem goes to `report`, which throws. */
type Check = (value: unknown, field: string, report: Report) => void
type Report = (field: string, problem: string) => never

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const describe = (value: unknown) =>
  Array.isArray(value) ? 'an array' : value === null ? 'null' : JSON.stringify(value)

const string: Check = (value, field, report) => {
  if (typeof value !== 'string' || value === '') report(field, `must be a non-empty string (got ${describe(value)})`)
}
const boolean: Check = (value, field, report) => {
  if (typeof value !== 'boolean') report(field, `must be true or false (got ${describe(value)})`)
}
const positiveInteger: Check = (value, field, report) => {
  if (!Number.isInteger(value) || (value as number) < 1)
    report(field, `must be a positive integer (got ${describe(value)})`)
}
const oneOf =
  (...allowed: string[]): Check =>
  (value, field, report) => {
    if (typeof value !== 'string' || !allowed.includes(value)) {
      report(field, `must be one of ${allowed.join(', ')} (got ${describe(value)})`)
    }
  }
const stringList: Check = (value, field, report) => {
  if (!Array.isArray(value)) report(field, `must be an array of strings (got ${describe(value)})`)
  for (const [index, item] of (value as unknown[]).entries()) {
    if (typeof item !== 'string') report(`${field}[${index}]`, `must be a string (got ${describe(item)})`)
  }
}
const recordOf =
  (check: Check): Check =>
  (value, field, report) => {
    if (!isRecord(value)) report(field, `must be an object (got ${describe(value)})`)
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) check(item, `${field}.${key}`, report)
  }
const objectOf =
  (fields: Record<string, Check>, required: readonly string[] = []): Check =>
  (value, field, report) => {
    if (!isRecord(value)) report(field, `must be an object (got ${describe(value)})`)
    const record = value as Record<string, unknown>
    for (const name of required) if (!(name in record)) report(`${field}.${name}`, 'is required')
    for (const [key, item] of Object.entries(record)) {
      const check = fields[key]
      if (check === undefined)
        return report(`${field}.${key}`, `is not a known field (known: ${Object.keys(fields).join(', ')})`)
      check(item, `${field}.${key}`, report)
    }
  }

const stdioServer = objectOf(
  { command: string, args: stringList, env: recordOf(string), cwd: string, type: oneOf('stdio'), disabled: boolean },
  ['command'],
)
const httpServer = objectOf(
  { url: string, headers: recordOf(string), type: oneOf('http', 'streamable-http'), disabled: boolean },
  ['url'],
)
const mcpServer: Check = (value, field, report) =>
  (isRecord(value) && 'url' in value ? httpServer : stdioServer)(value, field, report)

/** Every accepted top-level field and how it is checked. */
export const CONFIG_FIELDS = {
  $schema: string,
  workspace: string,
  toolkit: boolean,
  mode: oneOf('native', 'ptc', 'both'),
  language: oneOf('typescript', 'python'),
  mcpServers: recordOf(mcpServer),
  approve: recordOf(oneOf('ask', 'allow', 'deny')),
  limits: objectOf({
    timeoutMs: positiveInteger,
    maxParallelCalls: positiveInteger,
    maxParallelSubCalls: positiveInteger,
    bashTimeoutMs: positiveInteger,
    mcpStartTimeoutMs: positiveInteger,
  }),
  serve: objectOf({
    allowedHosts: stringList,
    allowedOrigins: stringList,
    token: string,
    sessionIdleMs: positiveInteger,
    maxSessions: positiveInteger,
  }),
  bash: objectOf({
    sandbox: oneOf('bubblewrap', 'none'),
    network: boolean,
    env: stringList,
    writablePaths: stringList,
  }),
  escalation: objectOf({ network: boolean, writablePaths: stringList }),
} satisfies Record<string, Check>

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
  for (const [key, item] of Object.entries(value)) {
    const check = (CONFIG_FIELDS as Record<string, Check>)[key]
    if (check === undefined) {
      return report(key, `is not a known field (known: ${Object.keys(CONFIG_FIELDS).join(', ')})`)
    }
    check(item, key, report)
  }
  return value as QilinConfig
}
