import type { AnyToolDefinition, ToolExecution } from 'qilin-tools/internal/definition/tool-definition.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import type { JsonObject, JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { CallOutcome } from 'qilin-tools/internal/pipeline/call.js'
import { failure, failureFromThrown } from 'qilin-tools/internal/pipeline/call-outcome.js'
import { failureMessages } from 'qilin-tools/internal/pipeline/failure-messages.js'
import type { PreExecuteDecision, PreExecuteEvent } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import type { Presentation, SubCalls } from 'qilin-tools/internal/pipeline/tool-presenter.js'
import type { ToolRuntime } from 'qilin-tools/internal/pipeline/tool-runtime.js'
import { createDisposer, type Disposer } from 'qilin-tools/internal/registry/disposer.js'
import type { RegistryEntry } from 'qilin-tools/internal/registry/registry-entry.js'
import type { ToolSchema } from 'qilin-tools/internal/registry/tool-schema.js'
import {
  codeSearchDescription,
  codeSearchOutput,
  describeDescription,
  describeOutput,
} from 'qilin-tools/internal/tool-search/search-answers.js'
import {
  DESCRIBE_TOOL_NAME,
  describeToolParameters,
  SEARCH_TOOLS_NAME,
  searchToolsParameters,
} from 'qilin-tools/internal/tool-search/search-tools-tool.js'
import {
  type ProgramOutputLine,
  type PtcRuntime,
  type PtcRuntimeParts,
  type PtcToolIndex,
  type PtcToolView,
  RUN_CODE_TOOL_NAME,
  type SandboxPermissions,
} from './ptc-port.js'

const reservedNames = Object.freeze([RUN_CODE_TOOL_NAME])

/**
 * Code mode on top of the pipeline: a language runtime's parts become a `PtcRuntime`, whose presenter builds an
 * ordinary `run_code` definition per visible set and whose escalation rule is a `tools/pre-execute` listener it
 * installs on each tool runtime (removed again by `close`).
 */
export function codeModeRuntime<Parts extends PtcRuntimeParts>(parts: Parts): NoInfer<Parts> & PtcRuntime {
  const programs = new WeakSet<AnyToolDefinition>()
  const installed = new Set<Disposer>()
  const state: CodeModeState = { closed: false, outputListeners: new Set() }
  const runtime: Parts & PtcRuntime & { declareTools?: PtcRuntime['declareTools'] } = {
    ...parts,
    reservedNames,
    install(tools: ToolRuntime): Disposer {
      const listener = tools.on('tools/pre-execute', (event) => escalation(programs, event), {
        order: Number.MAX_VALUE,
      })
      const disposer = createDisposer(() => {
        installed.delete(disposer)
        listener.dispose()
      })
      installed.add(disposer)
      return disposer
    },
    presentTools(visible, mode, subCalls, search): Presentation {
      // Under search the SDK declares the listed tools and the search functions; the rest go to the index.
      const searching = search !== undefined && typeof parts.declare === 'function'
      const declared = (search?.listed ?? visible).map(toolView)
      const views = searching ? [...searchViews, ...declared] : declared
      const index: PtcToolIndex | undefined =
        search === undefined ? undefined : { tools: search.deferredSchemas, prefixes: () => search.prefixes() }
      const presentation =
        index === undefined
          ? runtime.present(Object.freeze(views), mode)
          : runtime.present(Object.freeze(views), mode, index)
      const searchNames = searching ? searchToolNames : []
      const definition = runCode(presentation.runCode, runtime, state, visible, searchNames, subCalls)
      programs.add(definition)
      return {
        tools: [definition],
        sections: presentation.sections,
        ...(presentation.omitted === undefined ? {} : { omitted: presentation.omitted }),
      }
    },
    onProgramOutput(listener) {
      const entry = (line: ProgramOutputLine) => listener(line)
      state.outputListeners.add(entry)
      return createDisposer(() => state.outputListeners.delete(entry))
    },
    close() {
      state.closed = true
      for (const disposer of [...installed]) disposer.dispose()
      return parts.close()
    },
  }
  if (typeof parts.declare === 'function') {
    const declare = parts.declare.bind(parts)
    runtime.declareTools = (entries) => declare(entries.map(toolView))
  }
  return runtime
}

/** What every `run_code` of one code-mode runtime shares: whether it was closed, and who watches programs print. */
interface CodeModeState {
  closed: boolean
  readonly outputListeners: Set<(line: ProgramOutputLine) => void>
}

/** What a program may call: each visible tool's binding, and the names its SDK offers (search's first). */
interface ProgramTools {
  readonly bindings: ReadonlyMap<string, RegistryEntry>
  readonly toolNames: readonly string[]
}

const searchToolNames = Object.freeze([SEARCH_TOOLS_NAME, DESCRIBE_TOOL_NAME])

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

/** `run_code` for one visible set: each SDK binding is the entry the tool was when the SDK was rendered. */
function runCode(
  schema: ToolSchema,
  runtime: PtcRuntimeParts,
  state: CodeModeState,
  visible: readonly RegistryEntry[],
  searchNames: readonly string[],
  subCalls: SubCalls,
): AnyToolDefinition {
  // Built on the first run, not per change: a prompt after one more tool need not index ten thousand names.
  let program: ProgramTools | undefined
  const programTools = (): ProgramTools => {
    program ??= {
      bindings: new Map(visible.map((entry) => [entry.name, entry])),
      toolNames: Object.freeze([...searchNames, ...visible.map((entry) => entry.name)]),
    }
    return program
  }
  return Object.freeze({
    name: schema.name,
    description: schema.description,
    parameters: schema.parameters,
    ownsDeadline: true,
    returnsOutcome: true,
    // The program's output answers to the code-mode limits (maxResultBytes among them), not the native budget.
    maxResultBytes: Number.POSITIVE_INFINITY,
    // Closed, the runtime no longer asks about escalation, so it runs nothing more.
    execute: (args: JsonObject, exec: ToolExecution) =>
      state.closed
        ? failure(ToolErrorCode.CODE_RUN_FAILED, 'code run failed (closed): the code-mode runtime was closed')
        : runProgram(runtime, subCalls, programTools(), args, exec, state.outputListeners),
  })
}

/** Escalation asks the approver, after every other listener, and needs a justification to show it. */
function escalation(programs: WeakSet<AnyToolDefinition>, event: PreExecuteEvent): PreExecuteDecision | undefined {
  if (!programs.has(event.definition)) return undefined
  const args = event.call.arguments
  if (args.sandbox_permissions !== 'require_escalated') return undefined
  if (!hasText(args.justification)) {
    const problem = 'justification must be a non-empty string when sandbox_permissions is "require_escalated"'
    return {
      action: 'deny',
      reason: failureMessages.invalidArguments(event.call.name, problem),
      error: { code: ToolErrorCode.INVALID_ARGUMENTS },
    }
  }
  return { action: 'ask', reason: `The program asks for escalated sandbox permissions: ${String(args.justification)}` }
}

/** Each watcher sees each line; one that throws is dropped for that line alone. */
function showOutput(
  listeners: ReadonlySet<(line: ProgramOutputLine) => void>,
  callId: string,
  agentId: string | undefined,
): (line: string) => void {
  return (line) => {
    const printed: ProgramOutputLine = Object.freeze({ callId, agentId, line })
    for (const listener of listeners) {
      try {
        listener(printed)
      } catch {
        // A watcher never changes the run.
      }
    }
  }
}

function hasText(value: JsonValue | undefined): boolean {
  return typeof value === 'string' && value.trim().length > 0
}

async function runProgram(
  runtime: PtcRuntimeParts,
  subCalls: SubCalls,
  { bindings, toolNames }: ProgramTools,
  args: JsonObject,
  exec: ToolExecution,
  outputListeners: ReadonlySet<(line: ProgramOutputLine) => void>,
): Promise<CallOutcome> {
  const parentId = exec.callId
  // Sub-calls still queued or running when the program ends (deadline, kill, or it simply returned) are cancelled:
  // nothing may keep acting, or keep an approval prompt open, for a program that is gone.
  const programEnded = new AbortController()
  // Only an approved run gets here: escalation always asks, and without approval the call is never dispatched.
  const call = subCalls.open(
    { parentId, escalated: args.sandbox_permissions === 'require_escalated' },
    AbortSignal.any([exec.signal, programEnded.signal]),
  )
  let count = 0
  const callTool = (name: string, toolArguments: JsonValue, signal?: AbortSignal) => {
    count++
    const binding = typeof name === 'string' ? bindings.get(name) : undefined
    const id = `${parentId}:ptc:${count}`
    return call({
      id,
      name: String(name),
      arguments: toolArguments,
      binding,
      ...(signal === undefined ? {} : { signal }),
    })
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
      ...(outputListeners.size === 0 ? {} : { onOutput: showOutput(outputListeners, parentId, exec.agentId) }),
    })
  } catch (thrown) {
    return failureFromThrown(thrown, ToolErrorCode.CODE_RUN_FAILED)
  } finally {
    programEnded.abort(new Error('the run_code program ended before this call settled'))
  }
}
