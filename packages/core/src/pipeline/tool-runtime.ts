import type { AnyToolDefinition, CardIntent } from '../definition/tool-definition.js'
import type { Disposer } from '../registry/disposer.js'
import type { ToolFilter } from '../registry/tool-filter.js'
import type { PresentationMode, ToolPrompt, ToolSchema } from '../registry/tool-schema.js'
import type { ToolCall, ToolResult } from './call.js'
import type { ListenerOptions, ToolEventListeners, ToolEventName, ToolGuard } from './pipeline-events.js'

/** Per-call options of `execute`: the signal that cancels the call. */
export interface ExecuteOptions {
  readonly signal?: AbortSignal
}

/** The options of one `execute`: its signal, and an approval the call already has. */
export interface CallOptions extends ExecuteOptions {
  /**
   * Who approved the call before it reached the runtime (a framework's own human-in-the-loop, say). When anything
   * asks for approval, the approver is not asked again: the approval is recorded as this one's. Denials by listeners
   * and guards still apply.
   * @default none
   */
  readonly approvedBy?: string
}

/**
 * The registry and pipeline as one scope sees them: the global scope from `createToolRuntime`, an agent's from
 * `agent(id)`. Registrations made through a scope apply to it (the global ones to every agent too).
 */
export interface ToolRuntime {
  /** Undefined for the global scope. */
  readonly agentId: string | undefined
  /** Adds a tool to this scope. A second tool of the same name in the same scope throws; an agent may shadow a global. */
  register(definition: AnyToolDefinition): Disposer
  /** Masks inherited global tools; masks intersect; this scope's own registrations stay visible. */
  restrict(filter: ToolFilter): Disposer
  guard(guard: ToolGuard): Disposer
  on<Event extends ToolEventName>(
    event: Event,
    listener: ToolEventListeners[Event],
    options?: ListenerOptions,
  ): Disposer
  /** Overrides the configured presentation mode for this scope (the global scope's choice is every agent's default). */
  presentAs(mode: PresentationMode): Disposer
  /**
   * Calls `listener` once after a burst of registrations, disposals, masks or presentation changes that altered
   * the tools this scope shows the model (checked in a microtask). What the listener throws is dropped.
   */
  onToolsChanged(listener: () => void): Disposer
  get(name: string): AnyToolDefinition | undefined
  /** The visible tools, sorted by name; nothing executable or host-only. */
  schemas(): readonly ToolSchema[]
  /** Everything the model sees: the tool schemas of the scope's presentation mode plus prompt sections. */
  prompt(): ToolPrompt
  /** Runs one call through the pipeline. Never rejects. */
  execute(call: ToolCall, options?: CallOptions): Promise<ToolResult>
  /** Runs one turn's calls under the concurrency contract; results in call order. Never rejects. */
  executeAll(calls: readonly ToolCall[], options?: ExecuteOptions): Promise<ToolResult[]>
  /**
   * A view of one agent's scope, with this same API. Views of one id share the scope; it lives until the last of
   * them is disposed, then its tools, masks, presentation, listeners, guards and watchers are gone, and the next
   * `agent(id)` starts empty. `agent` on an agent view opens a sibling, not a child.
   */
  agent(id: string): AgentRuntime
  /** The host card for a call, from the definition's `presentCall`; never sent to the model. */
  presentCall(call: ToolCall): CardIntent | undefined
  /** The host card for a successful result, from the definition's `presentResult`; never sent to the model. */
  presentResult(call: ToolCall, result: ToolResult): CardIntent | undefined
}

/**
 * One holder's view of an agent's scope. `dispose()` (or `using`) lets go of it; a disposed view throws a
 * `ToolRuntimeError` on any further use. Calls already running settle as they would have, in the scope they
 * started in.
 */
export interface AgentRuntime extends ToolRuntime, Disposer {
  readonly agentId: string
}
