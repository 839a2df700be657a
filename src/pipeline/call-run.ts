import type { ToolExecution } from '../definition/tool-definition.js'
import type { JsonObject } from '../json-schema/json-value.js'
import type { RegistryEntry } from '../registry/registry-entry.js'
import type { RegistryLayer, ScopedRegistry } from '../registry/scoped-registry.js'
import type { PresentationMode } from '../registry/tool-schema.js'
import type { SessionLog } from '../session-log/session-log.js'
import type { CallOutcome, ToolCall, ToolResult } from './call.js'
import type { ListenerRegistry, MergedListeners, ScopeListeners } from './listener-registry.js'
import type { Approver, CallInfo } from './pipeline-events.js'

/** A resolved tool, plus the hooks the synthesized `run_code` uses in place of a plain body. */
export interface CallTarget extends RegistryEntry {
  /** A further argument rule after schema validation; returns the problem. */
  readonly check?: (args: JsonObject) => string | undefined
  /** A reason the call must go to the approver even if no listener asked. */
  readonly askReason?: (args: JsonObject) => string | undefined
  /** Runs instead of `definition.execute` and returns the whole outcome. */
  readonly dispatch?: (args: JsonObject, exec: ToolExecution) => Promise<CallOutcome>
}

/** Finds the `run_code` target and the per-run bridge for a scope. Present only when a PTC runtime is configured. */
export interface PtcTargets {
  runCode(scope: PipelineScope, mode: 'ptc' | 'both'): CallTarget
}

/** Finds `search_tools` (and, for a program, `describe_tool`) where tool search is on in the scope. */
export interface SearchTargets {
  find(scope: PipelineScope, name: string, parentId: string | undefined): CallTarget | undefined
  /** The search names callable in the scope now: none while search is inactive there. */
  names(scope: PipelineScope, parentId: string | undefined): readonly string[]
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
  readonly ptc: PtcTargets | undefined
  /** Present unless `toolSearch` is `false`. */
  readonly search?: SearchTargets | undefined
}

/** Where a sub-call comes from: the `run_code` call whose program made it, and whether that run was escalated. */
export interface SubCallOrigin {
  readonly parentId: string
  /** The program's escalation was approved; its sub-calls see `exec.escalated`. */
  readonly escalated: boolean
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
  /** Inherited from the program's run; always false for a top-level call. */
  readonly escalated: boolean
  readonly startedAt: number
  readonly listeners: MergedListeners
  /** Set once the call is resolved and validated. */
  target: CallTarget | undefined
  info: CallInfo | undefined
  /** The reasons given for asking the approver, in order; empty when nothing asked. */
  asks: readonly string[]
  /** True once the body (or `run_code` dispatch) was invoked. */
  dispatched: boolean
  /** The one result, once the call settled. */
  result: ToolResult | undefined
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
    target: undefined,
    info: undefined,
    asks: noAsks,
    dispatched: false,
    result: undefined,
  }
}
