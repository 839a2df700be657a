import type { AnyToolDefinition, ToolExecution } from '../definition/tool-definition.js'
import { ToolErrorCode } from '../errors/error-codes.js'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import { type RegistryEntry, validatorFor } from '../registry/registry-entry.js'
import type { VisibleSet } from '../registry/scoped-registry.js'
import type { ToolPrompt } from '../registry/tool-schema.js'
import {
  codeSearchDescription,
  codeSearchOutput,
  describeDescription,
  describeOutput,
} from '../tool-search/search-answers.js'
import {
  DESCRIBE_TOOL_NAME,
  describeToolParameters,
  SEARCH_TOOLS_NAME,
  searchToolsParameters,
} from '../tool-search/search-tools-tool.js'
import { searchView } from '../tool-search/search-view.js'
import type { ResolvedToolSearch } from '../tool-search/tool-search-options.js'
import type { CallOutcome, ToolCall } from './call.js'
import { failureFromThrown } from './call-outcome.js'
import type { CallTarget, PipelineScope } from './call-run.js'
import { scheduleCall } from './execute-all.js'
import {
  type PtcPresentation,
  type PtcRuntime,
  type PtcToolIndex,
  type PtcToolView,
  RUN_CODE_TOOL_NAME,
  type SandboxPermissions,
} from './ptc-port.js'
import { createScheduler } from './scheduler.js'

type PtcMode = 'ptc' | 'both'

interface Presented {
  readonly presentation: PtcPresentation
  readonly prompt: ToolPrompt
  readonly target: CallTarget
}

/**
 * Connects the pipeline to a code-mode runtime: builds the scope's `run_code` from the runtime's presentation and
 * runs each program's sub-calls through the whole pipeline, in the caller's scope, on a scheduler of their own.
 */
export class PtcBridge {
  readonly #runtime: PtcRuntime
  readonly #search: ResolvedToolSearch | undefined
  readonly #cache = new WeakMap<VisibleSet, Partial<Record<PtcMode, Presented>>>()

  constructor(runtime: PtcRuntime, search: ResolvedToolSearch | undefined = undefined) {
    this.#runtime = runtime
    this.#search = search
  }

  /** The runtime's declarations of `entries` alone; undefined when the runtime cannot declare tools one by one. */
  get declarations(): ((entries: readonly RegistryEntry[]) => string) | undefined {
    const runtime = this.#runtime
    if (typeof runtime.declare !== 'function') return undefined
    return (entries) => runtime.declare?.(entries.map(toolView)) ?? ''
  }

  /** The presentation and prompt for a scope; the runtime is asked again only when the visible set changed. */
  presented(scope: PipelineScope, mode: PtcMode): Presented {
    const visible = scope.core.registry.visible(scope.layer)
    let byMode = this.#cache.get(visible)
    if (byMode === undefined) {
      byMode = {}
      this.#cache.set(visible, byMode)
    }
    const cached = byMode[mode]
    if (cached !== undefined) return cached
    const search = searchView(visible, this.#search)
    const declared = search.active ? search.listed.map(toolView) : visible.entries.map(toolView)
    const searching = search.active && this.declarations !== undefined
    const views = searching ? [...searchViews, ...declared] : declared
    const index: PtcToolIndex | undefined = search.active
      ? { tools: search.deferredSchemas, prefixes: search.prefixes }
      : undefined
    const presentation =
      index === undefined
        ? this.#runtime.present(Object.freeze(views), mode)
        : this.#runtime.present(Object.freeze(views), mode, index)
    // Built on the first run, not per change: a prompt after one more tool need not list ten thousand names.
    let toolNames: readonly string[] | undefined
    const programNames = () => {
      const names = visible.entries.map((entry) => entry.name)
      toolNames ??= Object.freeze(searching ? [SEARCH_TOOLS_NAME, DESCRIBE_TOOL_NAME, ...names] : names)
      return toolNames
    }
    const presented: Presented = {
      presentation,
      prompt: Object.freeze({
        // Under search, `both` lists what the scope found before run_code; the runtime view adds those per prompt.
        tools: Object.freeze(
          mode === 'both' && !search.active ? [...visible.schemas, presentation.runCode] : [presentation.runCode],
        ),
        sections: Object.freeze([...presentation.sections].sort((left, right) => left.order - right.order)),
        ...(presentation.omitted === undefined ? {} : { omitted: Object.freeze([...presentation.omitted]) }),
      }),
      target: this.#target(scope, presentation, programNames),
    }
    byMode[mode] = presented
    return presented
  }

  runCode(scope: PipelineScope, mode: PtcMode): CallTarget {
    return this.presented(scope, mode).target
  }

  #target(scope: PipelineScope, presentation: PtcPresentation, toolNames: () => readonly string[]): CallTarget {
    const runtime = this.#runtime
    const schema = presentation.runCode
    const definition: AnyToolDefinition = Object.freeze({
      name: RUN_CODE_TOOL_NAME,
      description: schema.description,
      parameters: schema.parameters,
      ownsDeadline: true,
      execute() {
        throw new Error('run_code is dispatched by the PTC bridge')
      },
    })
    return Object.freeze({
      name: RUN_CODE_TOOL_NAME,
      definition,
      schema,
      parameters: validatorFor(schema.parameters),
      output: undefined,
      check: (args: JsonObject) =>
        args.sandbox_permissions === 'require_escalated' && !hasText(args.justification)
          ? 'justification must be a non-empty string when sandbox_permissions is "require_escalated"'
          : undefined,
      askReason: (args: JsonObject) =>
        args.sandbox_permissions === 'require_escalated'
          ? `The program asks for escalated sandbox permissions: ${String(args.justification)}`
          : undefined,
      dispatch: (args: JsonObject, exec: ToolExecution) => runProgram(runtime, scope, toolNames(), args, exec),
    })
  }
}

/** `search_tools` and `describe_tool` as a program declares them. */
const searchViews: readonly PtcToolView[] = Object.freeze([
  {
    name: SEARCH_TOOLS_NAME,
    description: codeSearchDescription,
    parameters: searchToolsParameters,
    output: codeSearchOutput,
  },
  {
    name: DESCRIBE_TOOL_NAME,
    description: describeDescription,
    parameters: describeToolParameters,
    output: describeOutput,
  },
])

const toolViews = new WeakMap<RegistryEntry, PtcToolView>()

/** One view per entry, so a runtime sees the same object for an unchanged tool and may reuse what it rendered. */
function toolView(entry: RegistryEntry): PtcToolView {
  let view = toolViews.get(entry)
  if (view === undefined) {
    const { definition } = entry
    view = Object.freeze({
      name: entry.name,
      description: definition.description,
      parameters: definition.parameters,
      ...(definition.output === undefined ? {} : { output: definition.output.schema }),
    })
    toolViews.set(entry, view)
  }
  return view
}

function hasText(value: JsonValue | undefined): boolean {
  return typeof value === 'string' && value.trim().length > 0
}

async function runProgram(
  runtime: PtcRuntime,
  scope: PipelineScope,
  toolNames: readonly string[],
  args: JsonObject,
  exec: ToolExecution,
): Promise<CallOutcome> {
  const scheduler = createScheduler(scope.core.maxParallelSubCalls)
  const parentId = exec.callId
  // Only an approved run reaches here: escalation always asks, and without approval the call is never dispatched.
  const origin = { parentId, escalated: args.sandbox_permissions === 'require_escalated' }
  // Sub-calls still queued or running when the program ends (deadline, kill, or it simply returned) are cancelled:
  // nothing may keep acting, or keep an approval prompt open, for a program that is gone.
  const programEnded = new AbortController()
  const subCallSignal = AbortSignal.any([exec.signal, programEnded.signal])
  let subCalls = 0
  const callTool = (name: string, toolArguments: JsonValue) => {
    subCalls++
    const call: ToolCall = {
      id: `${parentId}:ptc:${subCalls}`,
      name: String(name),
      // A bare string would be read as JSON text; wrap it so it fails validation as the non-object it is.
      arguments: typeof toolArguments === 'string' ? JSON.stringify(toolArguments) : (toolArguments as JsonObject),
    }
    return scheduleCall(scope, call, scheduler, subCallSignal, origin)
  }
  try {
    return await runtime.run({
      code: String(args.code),
      timeoutMs: typeof args.timeoutMs === 'number' ? args.timeoutMs : undefined,
      permissions: (args.sandbox_permissions as SandboxPermissions | undefined) ?? 'use_default',
      signal: exec.signal,
      callId: parentId,
      toolNames,
      callTool,
    })
  } catch (thrown) {
    return failureFromThrown(thrown, ToolErrorCode.CODE_RUN_FAILED)
  } finally {
    programEnded.abort(new Error('the run_code program ended before this call settled'))
  }
}
