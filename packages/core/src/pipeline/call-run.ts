import type { ContentPart } from '../definition/content.js'
import type { JsonValue } from '../json-schema/json-value.js'
import type { NativePromptBudget } from '../registry/native-prompt.js'
import type { RegistryEntry } from '../registry/registry-entry.js'
import type { RegistryLayer, ScopedRegistry } from '../registry/scoped-registry.js'
import type { PresentationMode, ToolPrompt } from '../registry/tool-schema.js'
import type { SessionLog } from '../session-log/session-log.js'
import type { CallOutcome, ToolCall, ToolResult } from './call.js'
import type { ListenerRegistry, MergedListeners, ScopeListeners } from './listener-registry.js'
import type { Approver, CallInfo } from './pipeline-events.js'
import type { Unreadable } from './read-arguments.js'
import type { ComposedMode, SubCallOrigin, ToolPresenter, ToolSearchSplit } from './tool-presenter.js'

/** A resolved tool: a registered one, or one a presenter added. */
export type CallTarget = RegistryEntry

/** A call's target and arguments, found and read once: when it was scheduled, or when it starts. */
export interface PreparedCall {
  /** Undefined when the scope has no such tool. */
  readonly target: CallTarget | undefined
  readonly args: JsonValue | Unreadable
  /** Why the call cannot run although the name resolves (a sub-call whose tool changed since it was offered). */
  readonly refusal?: CallOutcome
}

/** Finds `search_tools` (and, for a program, `describe_tool`) where tool search is on in the scope. */
export interface SearchTargets {
  /** `subCall`: the call comes from a presented tool (a program), which may also call `describe_tool`. */
  find(scope: PipelineScope, name: string, subCall: boolean): CallTarget | undefined
  /** The search names callable in the scope now: none while search is inactive there. */
  names(scope: PipelineScope, subCall: boolean): readonly string[]
  /** How search splits the scope's visible tools; undefined while it is inactive there. */
  split(scope: PipelineScope): ToolSearchSplit | undefined
}

/** What every scope of one runtime shares. */
export interface RuntimeCore {
  readonly registry: ScopedRegistry
  readonly listeners: ListenerRegistry
  readonly approve: Approver | undefined
  readonly sessionLog: SessionLog | undefined
  readonly defaultMode: PresentationMode
  readonly maxParallelCalls: number
  readonly maxParallelSubCalls: number
  /** The result budget of definitions that set none. */
  readonly maxResultBytes: number
  /** Builds the tools of the presentations other than `native`; undefined when the runtime has none. */
  readonly presenter: ToolPresenter | undefined
  /** The presenter's answer for a scope as it is now (`presentedTools`, handed in to keep imports one-way). */
  readonly presented: (scope: PipelineScope, mode: ComposedMode) => PresentedTools
  /** What a native prompt's schemas may take. Default `defaultNativePromptBudget`. */
  readonly promptBudget?: NativePromptBudget
  /** Present unless `toolSearch` is `false`. */
  readonly search?: SearchTargets | undefined
}

/** One scope's presentation for one visible set: what the model sees, and the presented tools it may call. */
export interface PresentedTools {
  readonly prompt: ToolPrompt
  readonly targets: ReadonlyMap<string, CallTarget>
}

export interface PipelineScope {
  readonly agentId: string | undefined
  readonly layer: RegistryLayer
  /** The agent's own listeners; undefined for the global scope. */
  readonly listeners: ScopeListeners | undefined
  readonly core: RuntimeCore
}

/** The mutable state of one call while it moves through the stages. Never leaves the pipeline. */
export interface CallRun {
  readonly call: ToolCall
  readonly scope: PipelineScope
  /** The caller's signal (a never-aborting one when the caller gave none). */
  readonly signal: AbortSignal
  /** False when the caller gave no signal: then nothing can cancel the call and no stage needs to look. */
  readonly cancellable: boolean
  readonly parentId: string | undefined
  /** Inherited from the call that made this one; always false for a top-level call. */
  readonly escalated: boolean
  readonly startedAt: number
  readonly listeners: MergedListeners
  /** Found and read when the call was scheduled; otherwise the resolve stage does it. */
  readonly prepared: PreparedCall | undefined
  /** Set once the call is resolved and validated. */
  target: CallTarget | undefined
  info: CallInfo | undefined
  /** The reasons given for asking the approver, in order; empty when nothing asked. */
  asks: readonly string[]
  /** Who approved the call before it arrived (`CallOptions.approvedBy`); the approver is then not asked. */
  readonly approvedBy: string | undefined
  /** True once the body was invoked. */
  dispatched: boolean
  /** The last outcome the execute wrappers' layers handed out as a resolved promise, with that promise. */
  resolved: { readonly outcome: CallOutcome; readonly promise: Promise<CallOutcome> } | undefined
  /** The one result, once the call settled. */
  result: ToolResult | undefined
}

/** What only some calls have for the session log: a retried call's attempt, a cut result's whole content. */
export interface RunNotes {
  /** Which run of the inner layers this is: 1, and one more each time a `tools/execute` wrapper retries. */
  attempt: number
  /** The content before the result budget cut it; undefined when nothing was cut. */
  wholeContent: readonly ContentPart[] | undefined
}

// Beside the run rather than on it, so a call that is neither retried nor cut carries and builds nothing more: the
// per-call bench rows must not grow for what few calls need.
const runNotes = new WeakMap<CallRun, RunNotes>()

/** The run's notes, if it has any. */
export function notesOf(run: CallRun): RunNotes | undefined {
  return runNotes.get(run)
}

/** The run's notes, made on first use. */
export function noteOn(run: CallRun): RunNotes {
  let notes = runNotes.get(run)
  if (notes === undefined) {
    notes = { attempt: 1, wholeContent: undefined }
    runNotes.set(run, notes)
  }
  return notes
}

const noAsks: readonly string[] = Object.freeze([])

export const neverAborted: AbortSignal = new AbortController().signal

export function isCancelled(run: CallRun): boolean {
  return run.cancellable && run.signal.aborted
}

export function openCall(
  scope: PipelineScope,
  call: ToolCall,
  signal: AbortSignal | undefined,
  origin: SubCallOrigin | undefined,
  prepared: PreparedCall | undefined = undefined,
  approvedBy: string | undefined = undefined,
): CallRun {
  return {
    call,
    scope,
    signal: signal ?? neverAborted,
    cancellable: signal !== undefined,
    parentId: origin?.parentId,
    escalated: origin?.escalated === true,
    startedAt: performance.now(),
    listeners: scope.core.listeners.forScope(scope.listeners),
    prepared,
    target: undefined,
    info: undefined,
    asks: noAsks,
    approvedBy,
    dispatched: false,
    resolved: undefined,
    result: undefined,
  }
}
