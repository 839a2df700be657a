import type { ApprovalAnswer, ApprovalRecord } from '../approvals/approval-store.js'
import type { AnyToolDefinition, CardIntent } from '../definition/tool-definition.js'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import { ToolRuntimeError } from '../errors/tool-runtime-error.js'
import { createDisposer, type Disposer } from '../registry/disposer.js'
import { cachedNativePrompt, defaultNativePromptBudget } from '../registry/native-prompt.js'
import type { ToolFilter } from '../registry/tool-filter.js'
import type { PresentationMode, ToolPrompt, ToolSchema } from '../registry/tool-schema.js'
import { foundTools } from '../tool-search/found-tools.js'
import { DESCRIBE_TOOL_NAME, SEARCH_TOOLS_NAME } from '../tool-search/search-tools-tool.js'
import type { DeferredToolResult, ToolCall, ToolResult } from './call.js'
import { callCard, resultCard } from './call-cards.js'
import type { DeferredApprovals, PipelineScope } from './call-run.js'
import { decideApproval, type HeldScope } from './decide-approval.js'
import { executeAll } from './execute-all.js'
import type { ListenerOptions, ToolEventListeners, ToolEventName, ToolGuard } from './pipeline-events.js'
import { mergeOmitted, presentedTools, withinNativeBudget } from './presented-tools.js'
import { runCall } from './run-call.js'
import { createScheduler } from './scheduler.js'
import { ToolSearchTargets } from './search-targets.js'
import type {
  DeferringAgentRuntime,
  DeferringToolRuntime,
  ExecuteOptions,
  PendingApprovalFilter,
} from './tool-runtime.js'
import { watchShownTools } from './watch-shown-tools.js'

/**
 * One view of a runtime: the global one or an agent's, each method first asking `ready` whether the view is still
 * open. Registrations go to the view's layer; calls run in its scope.
 */
export function createView(
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
      return callCard(lookup(call.name), call)
    },
    presentResult(call: ToolCall, result: ToolResult): CardIntent | undefined {
      ready('presentResult')
      return resultCard(lookup(call.name), call, result)
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

function isAnswer(answer: unknown): answer is ApprovalAnswer {
  return typeof answer === 'object' && answer !== null && typeof (answer as ApprovalAnswer).approved === 'boolean'
}
