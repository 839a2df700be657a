import type { ToolStore } from '../approvals/approval-store.js'
import type { AnyToolDefinition } from '../definition/tool-definition.js'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import { ToolRuntimeError } from '../errors/tool-runtime-error.js'
import { defaultNativePromptBudget } from '../registry/native-prompt.js'
import { ScopedRegistry } from '../registry/scoped-registry.js'
import { AgentScopes } from './agent-scopes.js'
import type { PipelineScope, RuntimeCore } from './call-run.js'
import type { HeldScope } from './decide-approval.js'
import { ListenerRegistry } from './listener-registry.js'
import { presentedTools } from './presented-tools.js'
import { type ApprovalsMode, resolveConfig, type ToolRuntimeConfig } from './runtime-config.js'
import { createView } from './runtime-view.js'
import { ToolSearchTargets } from './search-targets.js'
import { timeoutPolicy } from './timeout-policy.js'
import type { DeferringAgentRuntime, DeferringToolRuntime, ToolRuntime } from './tool-runtime.js'

/** A config that defers approvals: `approvals: 'defer'` with the store that keeps them. */
export type DeferringRuntimeConfig = ToolRuntimeConfig<'defer'> & {
  readonly approvals: 'defer'
  readonly store: ToolStore
}

/**
 * Creates the registry and pipeline. Throws a `ToolRuntimeConfigError` naming the field when the config is invalid.
 * With `approvals: 'defer'` (and a `store`) the runtime is a `DeferringToolRuntime`.
 */
export function createToolRuntime(config: DeferringRuntimeConfig): DeferringToolRuntime
export function createToolRuntime(config?: ToolRuntimeConfig): ToolRuntime
export function createToolRuntime(config?: ToolRuntimeConfig<ApprovalsMode>): ToolRuntime | DeferringToolRuntime {
  const resolved = resolveConfig(config)
  const presenter = resolved.ptcRuntime
  const declare = presenter?.declareTools
  const search =
    resolved.toolSearch === undefined
      ? undefined
      : new ToolSearchTargets(
          resolved.toolSearch,
          declare === undefined ? undefined : (entries) => declare.call(presenter, entries),
        )
  const listeners = new ListenerRegistry()
  const runtime = openViews(
    {
      registry: new ScopedRegistry(),
      listeners,
      approve: resolved.approve,
      sessionLog: resolved.sessionLog,
      defaultMode: resolved.mode,
      maxParallelCalls: resolved.maxParallelCalls,
      maxParallelSubCalls: resolved.maxParallelSubCalls,
      maxResultBytes: resolved.maxResultBytes,
      presenter,
      presented: presentedTools,
      promptBudget: { ...defaultNativePromptBudget, maxTotalBytes: resolved.maxPromptBytes },
      search,
      deferred:
        resolved.approvals === 'defer'
          ? {
              store: resolved.store!,
              ttlMs: resolved.approvalTtlMs,
              leaseMs: resolved.approvalLeaseMs,
              now: resolved.clock,
            }
          : undefined,
    },
    resolved.enforceTimeouts ? deadlines(listeners, resolved.defaultTimeoutMs) : undefined,
  )
  // For the runtime's lifetime: the presenter removes what it installed when it is closed. Its sub-calls never defer.
  presenter?.install(runtime as ToolRuntime)
  return runtime
}

/** Innermost, so a `timeoutPolicy` the host installs sets the deadline wherever it has one (see `timeoutPolicy`). */
const INNERMOST = Number.MAX_VALUE

/**
 * The runtime's own `timeoutPolicy`, installed once, by the first registration that declares `timeoutMs` (at once
 * when `defaultMs` is set): until then a call passes no wrapper for it. Returns what `register` calls.
 */
function deadlines(
  listeners: ListenerRegistry,
  defaultMs: number | undefined,
): (definition: AnyToolDefinition) => void {
  let installed = false
  const install = () => {
    installed = true
    listeners.on(undefined, 'tools/execute', timeoutPolicy(defaultMs === undefined ? {} : { defaultMs }), INNERMOST)
  }
  if (defaultMs !== undefined) install()
  return (definition) => {
    if (!installed && typeof definition?.timeoutMs === 'number') install()
  }
}

/**
 * The global view over `core`, whose `agent(id)` opens agent views that share `core`. Built as the deferring
 * runtime, the wider of the two; without `core.deferred` it has no `decide` and never answers pending, which is
 * what its `ToolRuntime` type says.
 */
export function openRuntime(
  core: RuntimeCore,
  registering: ((definition: AnyToolDefinition) => void) | undefined = undefined,
): ToolRuntime {
  return openViews(core, registering) as unknown as ToolRuntime
}

function openViews(
  core: RuntimeCore,
  registering: ((definition: AnyToolDefinition) => void) | undefined,
): DeferringToolRuntime {
  const agents = new AgentScopes(core)
  const agent = (agentId: string): DeferringAgentRuntime => {
    if (typeof agentId !== 'string' || agentId.length === 0)
      throw new InvalidArgumentError('agent(id): id must be a non-empty string')
    const scope = agents.acquire(agentId)
    let released = false
    const ready = (method: string) => {
      if (released) {
        throw new ToolRuntimeError(
          `${method}: the view of agent ${JSON.stringify(agentId)} was disposed; runtime.agent(id) opens a new one`,
        )
      }
    }
    const release = () => {
      if (released) return
      released = true
      agents.release(scope)
    }
    const view = createView(scope, agent, ready, (watcher) => agents.watch(scope, watcher), registering, held)
    return { ...view, agentId, dispose: release, [Symbol.dispose]: release }
  }
  const global: PipelineScope = { agentId: undefined, layer: core.registry.global, listeners: undefined, core }
  // `decide` runs a stored call in the scope of the agent that made it, held only while the call runs.
  const held = (agentId: string | undefined): HeldScope => {
    if (agentId === undefined) return { scope: global, release: () => {} }
    const scope = agents.acquire(agentId)
    return { scope, release: () => agents.release(scope) }
  }
  return createView(
    global,
    agent,
    () => {},
    (watcher) => watcher,
    registering,
    held,
  )
}
