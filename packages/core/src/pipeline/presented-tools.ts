import { ToolRuntimeError } from '../errors/tool-runtime-error.js'
import { registryEntryFor } from '../registry/registry-entry.js'
import type { VisibleSet } from '../registry/scoped-registry.js'
import type { CallTarget, PipelineScope, PresentedTools } from './call-run.js'
import { subCallsOf } from './execute-all.js'
import type { ComposedMode } from './tool-presenter.js'

const cache = new WeakMap<VisibleSet, Partial<Record<ComposedMode, PresentedTools>>>()

/**
 * The presenter's tools and prompt for the scope as it is now; the presenter is asked again only when the visible
 * set changed. A presenter that throws throws here, and the call asking settles with it.
 */
export function presentedTools(scope: PipelineScope, mode: ComposedMode): PresentedTools {
  const visible = scope.core.registry.visible(scope.layer)
  let byMode = cache.get(visible)
  if (byMode === undefined) {
    byMode = {}
    cache.set(visible, byMode)
  }
  const cached = byMode[mode]
  if (cached !== undefined) return cached
  const search = scope.core.search?.split(scope)
  const presentation =
    search === undefined
      ? scope.core.presenter!.presentTools(visible.entries, mode, subCallsOf(scope))
      : scope.core.presenter!.presentTools(visible.entries, mode, subCallsOf(scope), search)
  const reserved = scope.core.presenter!.reservedNames
  const targets = new Map<string, CallTarget>()
  for (const definition of presentation.tools) {
    const target = registryEntryFor(definition)
    if (!reserved.includes(target.name)) {
      throw new ToolRuntimeError(`presentTools: ${target.name} is not one of the presenter's reservedNames`)
    }
    targets.set(target.name, target)
  }
  const own = [...targets.values()].map((target) => target.schema)
  const presented: PresentedTools = {
    targets,
    prompt: Object.freeze({
      // Under search, `both` lists what the scope found before these; `prompt()` adds those per call.
      tools: Object.freeze(mode === 'both' && search === undefined ? [...visible.schemas, ...own] : own),
      sections: Object.freeze([...presentation.sections].sort((left, right) => left.order - right.order)),
      ...(presentation.omitted === undefined ? {} : { omitted: Object.freeze([...presentation.omitted]) }),
    }),
  }
  byMode[mode] = presented
  return presented
}
