import type { AnyToolDefinition, ToolExecution } from '../definition/tool-definition.js'
import { thrownMessage } from '../errors/thrown-message.js'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import type { JsonSchemaObject } from '../json-schema/node.js'
import type { RegistryEntry } from '../registry/registry-entry.js'
import type { VisibleSet } from '../registry/scoped-registry.js'
import { describeDescription } from './search-answers.js'
import type { SearchView } from './search-view.js'
import type { RankableTool } from './tool-ranker.js'
import type { ResolvedToolSearch } from './tool-search-options.js'

/** The tool search adds where it is on: natively, and as a binding in programs. Reserved unless `toolSearch: false`. */
export const SEARCH_TOOLS_NAME = 'search_tools'
/** The program binding that reads one tool's declaration by name. Reserved unless `toolSearch: false`. */
export const DESCRIBE_TOOL_NAME = 'describe_tool'

/** The longest query, in characters; the schema refuses a longer one before the search runs. */
export const MAX_QUERY_CHARS = 1000
export const DEFAULT_SEARCH_LIMIT = 5
export const MAX_SEARCH_LIMIT = 20

export const searchToolsParameters: JsonSchemaObject = Object.freeze({
  type: 'object',
  properties: Object.freeze({
    query: Object.freeze({
      type: 'string',
      minLength: 1,
      maxLength: MAX_QUERY_CHARS,
      description: 'What you want to do, in your own words.',
    }),
    limit: Object.freeze({
      type: 'integer',
      minimum: 1,
      maximum: MAX_SEARCH_LIMIT,
      description: `How many tools to return; default ${DEFAULT_SEARCH_LIMIT}.`,
    }),
  }),
  required: Object.freeze(['query']),
  additionalProperties: false,
}) as JsonSchemaObject

export const describeToolParameters: JsonSchemaObject = Object.freeze({
  type: 'object',
  properties: Object.freeze({ name: Object.freeze({ type: 'string', minLength: 1, maxLength: 256 }) }),
  required: Object.freeze(['name']),
  additionalProperties: false,
}) as JsonSchemaObject

/** What a search needs from its scope, and how its answer is worded for the caller's presentation. */
export interface SearchToolsSpec {
  readonly description: string
  readonly search: ResolvedToolSearch
  readonly visible: () => VisibleSet
  readonly view: (visible: VisibleSet) => SearchView
  /** The call's result for the tools found, best first. */
  readonly answer: (found: readonly RegistryEntry[]) => JsonObject
  /** Called with the found tools before the answer (native mode lists them from then on). */
  readonly onFound?: (found: readonly RegistryEntry[]) => void
}

/** `search_tools` for one scope: an ordinary definition, so the call goes through the whole pipeline. */
export function searchToolsDefinition(spec: SearchToolsSpec): AnyToolDefinition {
  return Object.freeze({
    name: SEARCH_TOOLS_NAME,
    description: spec.description,
    parameters: searchToolsParameters,
    annotations: Object.freeze({ readOnlyHint: true }),
    executionMode: 'parallel',
    async execute(args: JsonObject, exec: ToolExecution): Promise<JsonValue> {
      const visible = spec.visible()
      const limit = typeof args.limit === 'number' ? args.limit : DEFAULT_SEARCH_LIMIT
      const names = await rankedNames(spec, visible, String(args.query), limit, exec.signal)
      const found = names.flatMap((name) => {
        const entry = visible.byName.get(name)
        return entry === undefined ? [] : [entry]
      })
      spec.onFound?.(found)
      return spec.answer(found)
    },
  })
}

/** `describe_tool` for one scope: one visible tool's declaration by name. */
export function describeToolDefinition(
  visible: () => VisibleSet,
  answer: (entry: RegistryEntry) => JsonObject,
): AnyToolDefinition {
  return Object.freeze({
    name: DESCRIBE_TOOL_NAME,
    description: describeDescription,
    parameters: describeToolParameters,
    annotations: Object.freeze({ readOnlyHint: true }),
    executionMode: 'parallel',
    execute(args: JsonObject): JsonValue {
      const entry = visible().byName.get(String(args.name))
      if (entry === undefined) throw new Error(`no tool is named ${JSON.stringify(String(args.name)).slice(0, 300)}`)
      return answer(entry)
    },
  })
}

async function rankedNames(
  spec: SearchToolsSpec,
  visible: VisibleSet,
  query: string,
  limit: number,
  signal: AbortSignal,
): Promise<readonly string[]> {
  const ranker = spec.search.ranker
  if (ranker === undefined) return spec.view(visible).index().rank(query, limit)
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(spec.search.rankerTimeoutMs)])
  const tools: RankableTool[] = visible.entries.map((entry) => entry.schema)
  const returned = await untilAborted(
    Promise.resolve().then(() => ranker({ query, limit, tools, signal: deadline })),
    signal,
    deadline,
    spec.search.rankerTimeoutMs,
  )
  if (!Array.isArray(returned)) throw new Error('the host ranker returned something other than an array of names')
  const names = new Set<string>()
  for (const name of returned.slice(0, 10 * limit)) {
    if (names.size >= limit) break
    if (typeof name === 'string' && visible.byName.has(name)) names.add(name)
  }
  return [...names]
}

/**
 * A ranker that never settles, or settles late, still ends the search at its deadline. A cancelled call rejects
 * with its own signal's reason, as the pipeline expects of a body that honoured the cancellation.
 */
function untilAborted<Value>(
  work: Promise<Value>,
  callSignal: AbortSignal,
  deadline: AbortSignal,
  timeoutMs: number,
): Promise<Value> {
  return new Promise<Value>((resolve, reject) => {
    const stop = () =>
      reject(callSignal.aborted ? callSignal.reason : new Error(`the host ranker took more than ${timeoutMs} ms`))
    if (deadline.aborted) return stop()
    deadline.addEventListener('abort', stop, { once: true })
    work.then(
      (value) => {
        deadline.removeEventListener('abort', stop)
        resolve(value)
      },
      (error: unknown) => {
        deadline.removeEventListener('abort', stop)
        reject(new Error(`the host ranker failed: ${thrownMessage(error)}`))
      },
    )
  })
}
