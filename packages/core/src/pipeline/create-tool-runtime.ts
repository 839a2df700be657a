import type { ApprovalAnswer, ApprovalRecord, ToolStore } from '../approvals/approval-store.js'
import type { AnyToolDefinition, CardIntent } from '../definition/tool-definition.js'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import { ToolRuntimeError } from '../errors/tool-runtime-error.js'
import type { JsonObject } from '../json-schema/json-value.js'
import { parseJsonArguments } from '../json-schema/parse-json-arguments.js'
import { createDisposer, type Disposer } from '../registry/disposer.js'
import { cachedNativePrompt, defaultNativePromptBudget } from '../registry/native-prompt.js'
import { ScopedRegistry } from '../registry/scoped-registry.js'
import type { ToolFilter } from '../registry/tool-filter.js'
import type { PresentationMode, ToolPrompt, ToolSchema } from '../registry/tool-schema.js'
import { foundTools } from '../tool-search/found-tools.js'
import { DESCRIBE_TOOL_NAME, SEARCH_TOOLS_NAME } from '../tool-search/search-tools-tool.js'
import { AgentScopes } from './agent-scopes.js'
import type { DeferredToolResult, ToolCall, ToolResult } from './call.js'
import type { DeferredApprovals, PipelineScope, RuntimeCore } from './call-run.js'
import { decideApproval, type HeldScope } from './decide-approval.js'
import { executeAll } from './execute-all.js'
import { copyFrozenJson, isJsonObject } from './frozen-json.js'
import { ListenerRegistry } from './listener-registry.js'
import type { ListenerOptions, ToolEventListeners, ToolEventName, ToolGuard } from './pipeline-events.js'
import { mergeOmitted, presentedTools, withinNativeBudget } from './presented-tools.js'
import { runCall } from './run-call.js'
import { type ApprovalsMode, resolveConfig, type ToolRuntimeConfig } from './runtime-config.js'
import { createScheduler } from './scheduler.js'
import { ToolSearchTargets } from './search-targets.js'
import { timeoutPolicy } from './timeout-policy.js'
import type {
  DeferringAgentRuntime,
  DeferringToolRuntime,
  ExecuteOptions,
  PendingApprovalFilter,
  ToolRuntime,
} from './tool-runtime.js'
import { watchShownTools } from './watch-shown-tools.js'

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

function createView(
  scope: PipelineScope,
  agent: (agentId: string) => DeferringAgentRuntime,
  ready: (method: string) => void,
  own: (watcher: Disposer) => Disposer,
  registering: ((definition: AnyToolDefinition) => void) | undefined,
  held: (agentId: string | undefined) => HeldScope,
): DeferringToolRuntime {
  const { core, layer } = scope
  const search = core.search instanceof ToolSearchTargets ? core.search : undefined
  const { presenter } = core
  const modeOf = (): PresentationMode => core.registry.presentation(layer) ?? core.defaultMode
  const lookup = (name: string) => core.registry.resolve(layer, name)?.definition

  const view = {
    agentId: scope.agentId,
    register(definition: AnyToolDefinition): Disposer {
      ready('register')
      if (presenter?.reservedNames.includes(definition?.name) === true) {
        throw new ToolRuntimeError(`register: ${definition.name} is reserved for the configured PTC runtime`)
      }
      if (search !== undefined && (definition?.name === SEARCH_TOOLS_NAME || definition?.name === DESCRIBE_TOOL_NAME)) {
        throw new ToolRuntimeError(
          `register: ${definition.name} is reserved for tool search (toolSearch: false frees it)`,
        )
      }
      const disposer = core.registry.register(layer, definition)
      registering?.(definition)
      return disposer
    },
    restrict(filter: ToolFilter): Disposer {
      ready('restrict')
      return core.registry.restrict(layer, filter)
    },
    guard(guard: ToolGuard): Disposer {
      ready('guard')
      return core.listeners.guard(scope.listeners, guard)
    },
    on<Event extends ToolEventName>(
      event: Event,
      listener: ToolEventListeners[Event],
      options?: ListenerOptions,
    ): Disposer {
      ready('on')
      return core.listeners.on(scope.listeners, event, listener, options?.order ?? 0)
    },
    presentAs(mode: PresentationMode): Disposer {
      ready('presentAs')
      if (mode !== 'native' && mode !== 'ptc' && mode !== 'both') {
        throw new InvalidArgumentError(`presentAs: mode must be 'native', 'ptc' or 'both', not ${String(mode)}`)
      }
      if (mode !== 'native' && presenter === undefined) {
        throw new ToolRuntimeError(`presentAs('${mode}'): the runtime has no ptcRuntime; pass one to createToolRuntime`)
      }
      return core.registry.presentAs(layer, mode)
    },
    onToolsChanged(listener: () => void): Disposer {
      ready('onToolsChanged')
      const shown = () => ({ mode: modeOf(), entries: core.registry.visible(layer).entries })
      const watcher = watchShownTools(core.registry, shown, listener)
      if (search === undefined) return own(watcher)
      // A search lists what it found from then on: that changes what the model is shown as much as a registration.
      const found = foundTools(layer).onAdd(() =>
        queueMicrotask(() => {
          try {
            listener()
          } catch {
            // As for registrations, what the listener throws is dropped.
          }
        }),
      )
      return own(
        createDisposer(() => {
          watcher.dispose()
          found.dispose()
        }),
      )
    },
    get(name: string): AnyToolDefinition | undefined {
      ready('get')
      return lookup(name)
    },
    schemas(): readonly ToolSchema[] {
      ready('schemas')
      return core.registry.visible(layer).schemas
    },
    prompt(): ToolPrompt {
      ready('prompt')
      const mode = modeOf()
      if (mode === 'native') {
        const schemas = search?.nativeTools(scope) ?? core.registry.visible(layer).schemas
        return cachedNativePrompt(schemas, core.promptBudget ?? defaultNativePromptBudget)
      }
      if (presenter === undefined) throw new ToolRuntimeError(`prompt: mode '${mode}' needs a ptcRuntime`)
      const presented = presentedTools(scope, mode)
      if (mode === 'ptc' || search === undefined || !search.view(scope).active) return presented.prompt
      const found = withinNativeBudget(scope, search.nativeTools(scope))
      const omitted = mergeOmitted(presented.prompt.omitted, found.omitted)
      return {
        ...presented.prompt,
        tools: [...found.tools, ...presented.prompt.tools],
        ...(omitted === undefined ? {} : { omitted }),
      }
    },
    execute(call: ToolCall, options?: ExecuteOptions): Promise<DeferredToolResult> {
      ready('execute')
      const answer = options?.approval
      // Anything but an answer (a host passing the wrong thing) is no answer: the approver is asked as usual.
      const decided = isAnswer(answer) ? { answer, askedAt: performance.now(), resumed: false } : undefined
      return runCall(scope, asCall(call), options?.signal, undefined, undefined, decided)
    },
    executeAll(calls: readonly ToolCall[], options?: ExecuteOptions): Promise<DeferredToolResult[]> {
      ready('executeAll')
      const list = Array.isArray(calls) ? calls.map(asCall) : []
      return executeAll(scope, list, createScheduler(core.maxParallelCalls), options?.signal)
    },
    agent(id: string): DeferringAgentRuntime {
      ready('agent')
      return agent(id)
    },
    presentCall(call: ToolCall): CardIntent | undefined {
      ready('presentCall')
      const definition = lookup(call.name)
      const args = definition?.presentCall === undefined ? undefined : argumentsOf(call)
      return args === undefined ? undefined : safely(() => definition!.presentCall!(args))
    },
    presentResult(call: ToolCall, result: ToolResult): CardIntent | undefined {
      ready('presentResult')
      const definition = lookup(call.name)
      if (definition?.presentResult === undefined || !result.ok || result.value === undefined) return undefined
      const args = argumentsOf(call)
      return args === undefined ? undefined : safely(() => definition.presentResult!(args, result.value))
    },
  }
  return (core.deferred === undefined
    ? view
    : { ...view, ...deferredMethods(scope, core.deferred, ready, held) }) as unknown as DeferringToolRuntime
}

/** `pendingApprovals` and `decide`, on a runtime created with `approvals: 'defer'` only. */
function deferredMethods(
  scope: PipelineScope,
  deferred: DeferredApprovals,
  ready: (method: string) => void,
  held: (agentId: string | undefined) => HeldScope,
): Pick<DeferringToolRuntime, 'pendingApprovals' | 'decide'> {
  return {
    pendingApprovals(filter?: PendingApprovalFilter): Promise<readonly ApprovalRecord[]> {
      ready('pendingApprovals')
      const given = filter ?? {}
      const agentId = given.agentId ?? scope.agentId
      return deferred.store.listApprovals({
        ...(agentId === undefined ? {} : { agentId }),
        ...(given.toolName === undefined ? {} : { toolName: given.toolName }),
        ...(given.createdAfter === undefined ? {} : { createdAfter: given.createdAfter }),
        ...(given.limit === undefined ? {} : { limit: given.limit }),
        state: 'pending',
        expiresAfter: deferred.now(),
      })
    },
    decide(approvalId: string, answer: ApprovalAnswer): Promise<ToolResult> {
      ready('decide')
      return decideApproval(deferred, held, approvalId, answer)
    },
  }
}

/** A malformed call still settles (as an unknown tool) instead of throwing out of `execute`. */
function asCall(call: ToolCall): ToolCall {
  if (typeof call === 'object' && call !== null && typeof call.id === 'string' && typeof call.name === 'string') {
    return call
  }
  const record = (typeof call === 'object' && call !== null ? call : {}) as Partial<Record<keyof ToolCall, unknown>>
  return { id: String(record.id ?? ''), name: String(record.name ?? ''), arguments: '{}' }
}

function argumentsOf(call: ToolCall): JsonObject | undefined {
  const value = typeof call.arguments === 'string' ? parsed(call.arguments) : copyFrozenJson(call.arguments)
  return isJsonObject(value) ? value : undefined
}

function parsed(text: string): unknown {
  const result = parseJsonArguments(text)
  return result.ok ? result.value : undefined
}

function safely<Value>(present: () => Value): Value | undefined {
  try {
    return present()
  } catch {
    return undefined
  }
}

function isAnswer(answer: unknown): answer is ApprovalAnswer {
  return typeof answer === 'object' && answer !== null && typeof (answer as ApprovalAnswer).approved === 'boolean'
}
