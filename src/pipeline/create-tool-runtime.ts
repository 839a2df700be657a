import type { AnyToolDefinition, CardIntent } from '../definition/tool-definition.js'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import { ToolRuntimeError } from '../errors/tool-runtime-error.js'
import type { JsonObject } from '../json-schema/json-value.js'
import { parseJsonArguments } from '../json-schema/parse-json-arguments.js'
import type { Disposer } from '../registry/disposer.js'
import { ScopedRegistry } from '../registry/scoped-registry.js'
import type { ToolFilter } from '../registry/tool-filter.js'
import type { PresentationMode, ToolPrompt, ToolSchema } from '../registry/tool-schema.js'
import type { ToolCall, ToolResult } from './call.js'
import type { PipelineScope, RuntimeCore } from './call-run.js'
import { executeAll } from './execute-all.js'
import { copyFrozenJson, isJsonObject } from './frozen-json.js'
import { ListenerRegistry } from './listener-registry.js'
import type { ListenerOptions, ToolEventListeners, ToolEventName, ToolGuard } from './pipeline-events.js'
import { PtcBridge } from './ptc-bridge.js'
import { RUN_CODE_TOOL_NAME } from './ptc-port.js'
import { runCall } from './run-call.js'
import { resolveConfig, type ToolRuntimeConfig } from './runtime-config.js'
import { createScheduler } from './scheduler.js'
import type { ExecuteOptions, ToolRuntime } from './tool-runtime.js'
import { watchShownTools } from './watch-shown-tools.js'

/** Creates the registry and pipeline. Throws a `ToolRuntimeConfigError` naming the field when the config is invalid. */
export function createToolRuntime(config?: ToolRuntimeConfig): ToolRuntime {
  const resolved = resolveConfig(config)
  const bridge = resolved.ptcRuntime === undefined ? undefined : new PtcBridge(resolved.ptcRuntime)
  const core: RuntimeCore = {
    registry: new ScopedRegistry(),
    listeners: new ListenerRegistry(),
    approve: resolved.approve,
    sessionLog: resolved.sessionLog,
    defaultMode: resolved.mode,
    maxParallelCalls: resolved.maxParallelCalls,
    maxParallelSubCalls: resolved.maxParallelSubCalls,
    ptc: bridge,
  }
  const views = new Map<string, ToolRuntime>()
  const viewOf = (agentId: string | undefined): ToolRuntime => {
    if (agentId === undefined) return root
    if (typeof agentId !== 'string' || agentId.length === 0)
      throw new InvalidArgumentError('agent(id): id must be a non-empty string')
    let view = views.get(agentId)
    if (view === undefined) {
      view = createView(core, bridge, agentId, viewOf)
      views.set(agentId, view)
    }
    return view
  }
  const root = createView(core, bridge, undefined, viewOf)
  return root
}

function createView(
  core: RuntimeCore,
  bridge: PtcBridge | undefined,
  agentId: string | undefined,
  viewOf: (agentId: string) => ToolRuntime,
): ToolRuntime {
  const scope: PipelineScope = { agentId, layer: core.registry.layer(agentId), core }
  const modeOf = (): PresentationMode => core.registry.presentation(scope.layer) ?? core.defaultMode
  const lookup = (name: string) => core.registry.resolve(scope.layer, name)?.definition

  return {
    agentId,
    register(definition: AnyToolDefinition): Disposer {
      if (bridge !== undefined && definition?.name === RUN_CODE_TOOL_NAME) {
        throw new ToolRuntimeError(`register: ${RUN_CODE_TOOL_NAME} is reserved for the configured PTC runtime`)
      }
      return core.registry.register(scope.layer, definition)
    },
    restrict: (filter: ToolFilter) => core.registry.restrict(scope.layer, filter),
    guard: (guard: ToolGuard) => core.listeners.guard(agentId, guard),
    on: <Event extends ToolEventName>(event: Event, listener: ToolEventListeners[Event], options?: ListenerOptions) =>
      core.listeners.on(agentId, event, listener, options?.order ?? 0),
    presentAs(mode: PresentationMode): Disposer {
      if (mode !== 'native' && mode !== 'ptc' && mode !== 'both') {
        throw new InvalidArgumentError(`presentAs: mode must be 'native', 'ptc' or 'both', not ${String(mode)}`)
      }
      if (mode !== 'native' && bridge === undefined) {
        throw new ToolRuntimeError(`presentAs('${mode}'): the runtime has no ptcRuntime; pass one to createToolRuntime`)
      }
      return core.registry.presentAs(scope.layer, mode)
    },
    onToolsChanged: (listener: () => void): Disposer =>
      watchShownTools(
        core.registry,
        () => ({ mode: modeOf(), entries: core.registry.visible(scope.layer).entries }),
        listener,
      ),
    get: lookup,
    schemas: (): readonly ToolSchema[] => core.registry.visible(scope.layer).schemas,
    prompt(): ToolPrompt {
      const mode = modeOf()
      if (mode === 'native') return { tools: core.registry.visible(scope.layer).schemas, sections: [] }
      if (bridge === undefined) throw new ToolRuntimeError(`prompt: mode '${mode}' needs a ptcRuntime`)
      return bridge.presented(scope, mode).prompt
    },
    execute: (call: ToolCall, options?: ExecuteOptions): Promise<ToolResult> =>
      runCall(scope, asCall(call), options?.signal),
    async executeAll(calls: readonly ToolCall[], options?: ExecuteOptions): Promise<ToolResult[]> {
      const list = Array.isArray(calls) ? calls.map(asCall) : []
      return executeAll(scope, list, createScheduler(core.maxParallelCalls), options?.signal)
    },
    agent: (id: string) => viewOf(id),
    presentCall(call: ToolCall): CardIntent | undefined {
      const definition = lookup(call.name)
      const args = definition?.presentCall === undefined ? undefined : argumentsOf(call)
      return args === undefined ? undefined : safely(() => definition!.presentCall!(args))
    },
    presentResult(call: ToolCall, result: ToolResult): CardIntent | undefined {
      const definition = lookup(call.name)
      if (definition?.presentResult === undefined || !result.ok || result.value === undefined) return undefined
      const args = argumentsOf(call)
      return args === undefined ? undefined : safely(() => definition.presentResult!(args, result.value))
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
