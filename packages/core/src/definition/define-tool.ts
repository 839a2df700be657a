import { compileSchema } from '../json-schema/compile.js'
import type { JsonValue } from '../json-schema/json-value.js'
import type { JsonSchemaNode } from '../json-schema/node.js'
import { SchemaCompileError } from '../json-schema/schema-compile-error.js'
import type { InferArgs } from '../schema/infer.js'
import { SchemaSpecError } from '../schema/schema-spec-error.js'
import { childPath } from '../schema/spec-path.js'
import { isStandardSchema } from '../schema/standard-schema.js'
import { type ProjectionNote, parametersToJsonSchemaNoting, toJsonSchemaNoting } from '../schema/to-json-schema.js'
import type { ParametersSpec, ValueSpec } from '../schema/value-spec.js'
import { deepFreeze } from './deep-freeze.js'
import type { OutputValue, ReturnCheck, ToolConfig } from './tool-config.js'
import type { ToolDefinition } from './tool-definition.js'
import { ToolDefinitionError } from './tool-definition-error.js'

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/

type Check = (value: unknown) => string | undefined

const isFunction: Check = (value) => (typeof value === 'function' ? undefined : 'must be a function')
const isNonEmptyText: Check = (value) =>
  typeof value === 'string' && value.trim() !== '' ? undefined : 'must be a non-empty string'
const isText: Check = (value) => (typeof value === 'string' ? undefined : 'must be a string')
const isFlag: Check = (value) => (typeof value === 'boolean' ? undefined : 'must be true or false')
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const annotationChecks: Readonly<Record<string, Check>> = {
  title: isText,
  readOnlyHint: isFlag,
  destructiveHint: isFlag,
  idempotentHint: isFlag,
  openWorldHint: isFlag,
}

/** Every config key, with the check its value must pass when present (`parameters` and `output` convert separately). */
const configChecks: Readonly<Record<string, Check>> = {
  name: (value) =>
    typeof value === 'string' && toolNamePattern.test(value)
      ? undefined
      : 'must be 1 to 64 characters from a-z, A-Z, 0-9, _ and -',
  title: isText,
  description: isNonEmptyText,
  parameters: () => undefined,
  output: (value) => {
    if (!isRecord(value) || !('schema' in value)) return 'must be an object with a schema'
    const extra = Object.keys(value).find((key) => key !== 'schema' && key !== 'render')
    if (extra !== undefined) return `unknown key ${JSON.stringify(extra)} (expected schema, render)`
    return value.render === undefined || typeof value.render === 'function' ? undefined : 'render must be a function'
  },
  annotations: (value) => {
    if (!isRecord(value)) return 'must be an object'
    for (const [key, item] of Object.entries(value)) {
      const check = annotationChecks[key]
      if (check === undefined) return `unknown annotation ${JSON.stringify(key)}`
      const reason = check(item)
      if (reason !== undefined) return `${key} ${reason}`
    }
    return undefined
  },
  executionMode: (value) =>
    value === 'parallel' || value === 'exclusive' || typeof value === 'function'
      ? undefined
      : 'must be "parallel", "exclusive" or a function of the arguments',
  timeoutMs: (value) =>
    typeof value === 'number' && Number.isFinite(value) && value > 0
      ? undefined
      : 'must be a positive finite number of milliseconds',
  deferLoading: isFlag,
  idempotent: isFlag,
  maxResultBytes: (value) =>
    Number.isSafeInteger(value) && (value as number) >= 1 ? undefined : 'must be a positive whole number of bytes',
  needsApproval: (value) =>
    typeof value === 'boolean' || typeof value === 'function' ? undefined : 'must be true, false or a function',
  execute: isFunction,
  finalizeContent: isFunction,
  presentCall: isFunction,
  presentResult: isFunction,
}

const requiredKeys = ['name', 'description', 'parameters', 'execute'] as const

function checkConfig(config: Record<string, unknown>, toolName: string): void {
  for (const key of requiredKeys) {
    if (config[key] === undefined) throw new ToolDefinitionError(toolName, key, 'is required')
  }
  for (const [key, value] of Object.entries(config)) {
    const check = configChecks[key]
    if (check === undefined) throw new ToolDefinitionError(toolName, key, 'is not a tool definition key')
    if (value === undefined) continue
    const reason = check(value)
    if (reason !== undefined) throw new ToolDefinitionError(toolName, key, reason)
  }
}

/** Converts a spec, then compiles the result (leniently, as MCP schemas need) so a broken raw node fails here. */
function convert<Node extends JsonSchemaNode>(toolName: string, path: string, conversion: () => Node): Node {
  let node: Node
  try {
    node = conversion()
  } catch (error) {
    if (error instanceof SchemaSpecError) {
      throw new ToolDefinitionError(toolName, error.path, error.reason, { cause: error })
    }
    throw error
  }
  try {
    compileSchema(node, { lenient: true })
  } catch (error) {
    if (error instanceof SchemaCompileError)
      throw new ToolDefinitionError(toolName, path, error.message, { cause: error })
    throw error
  }
  return node
}

/** One line of the definition's `schemaNotes`. */
function noteText(note: ProjectionNote): string {
  const enforced = note.root && note.path === 'parameters'
  return enforced
    ? `${note.path}, ${note.rule}: ${note.vendor} enforces it on every call; the model's schema does not show it`
    : `${note.path}, ${note.rule}: not enforced, nor shown to the model (only a Standard Schema given as the whole ` +
        'parameters is run by its library)'
}

/**
 * Validates a tool and returns it frozen, with `parameters` and `output.schema` converted to canonical JSON Schema.
 * Throws `ToolDefinitionError` naming the tool and the path of the first problem.
 *
 * `execute` receives arguments typed from `parameters` and must return the value `output.schema` describes (any
 * JSON value without one). Literal return values keep their literal type, with one TypeScript limit: an `async`
 * body returning a bare string or number literal for an `enum`/`const` output is widened (write `'on' as const`).
 */
export function defineTool<
  const Parameters extends ParametersSpec,
  const Output extends ValueSpec | undefined = undefined,
  const Returned extends JsonValue | object = OutputValue<Output> & (JsonValue | object),
>(
  config: ToolConfig<Parameters, Output, Returned> & ReturnCheck<Output, Returned>,
): ToolDefinition<InferArgs<Parameters>, OutputValue<Output>> {
  if (!isRecord(config)) throw new ToolDefinitionError('(unnamed)', '', 'defineTool takes a configuration object')
  const source = config as unknown as Record<string, unknown>
  const toolName = typeof source.name === 'string' ? source.name : '(unnamed)'
  checkConfig(source, toolName)
  const notes: ProjectionNote[] = []
  const parameters = convert(toolName, 'parameters', () =>
    parametersToJsonSchemaNoting(config.parameters as ParametersSpec, 'parameters', notes),
  )
  const standardParameters = isStandardSchema(config.parameters) ? config.parameters : undefined
  if (standardParameters !== undefined && typeof standardParameters['~standard'].validate !== 'function') {
    throw new ToolDefinitionError(toolName, 'parameters', 'a Standard Schema needs a ~standard.validate function')
  }
  const definition: Record<string, unknown> = { name: config.name }
  if (config.title !== undefined) definition.title = config.title
  definition.description = config.description
  definition.parameters = parameters
  if (config.output !== undefined) {
    const outputPath = childPath('output', 'schema')
    const schema: JsonSchemaNode = convert(toolName, outputPath, () =>
      toJsonSchemaNoting(config.output?.schema as ValueSpec, outputPath, notes),
    )
    definition.output = config.output.render === undefined ? { schema } : { schema, render: config.output.render }
  }
  if (config.annotations !== undefined) definition.annotations = { ...config.annotations }
  if (standardParameters !== undefined) definition.standardParameters = standardParameters
  if (notes.length > 0) definition.schemaNotes = notes.map(noteText)
  for (const key of [
    'executionMode',
    'timeoutMs',
    'idempotent',
    'maxResultBytes',
    'deferLoading',
    'needsApproval',
    'execute',
    'finalizeContent',
    'presentCall',
    'presentResult',
  ]) {
    if (source[key] !== undefined) definition[key] = source[key]
  }
  return deepFreeze(definition) as unknown as ToolDefinition<InferArgs<Parameters>, OutputValue<Output>>
}
