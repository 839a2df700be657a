import { ToolRuntimeError } from '../errors/tool-runtime-error.js'
import { cachedNativePrompt, defaultNativePromptBudget } from '../registry/native-prompt.js'
import { registryEntryFor } from '../registry/registry-entry.js'
import type { VisibleSet } from '../registry/scoped-registry.js'
import type { OmittedTool, ToolPrompt } from '../registry/tool-schema.js'
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
  // Under search, `both` lists what the scope found before these; `prompt()` adds those per call.
  const listed = mode === 'both' && search === undefined ? withinNativeBudget(scope, visible.schemas) : undefined
  const omitted = mergeOmitted(presentation.omitted, listed?.omitted)
  const presented: PresentedTools = {
    targets,
    prompt: Object.freeze({
      tools: Object.freeze(listed === undefined ? own : [...listed.tools, ...own]),
      sections: Object.freeze([...presentation.sections].sort((left, right) => left.order - right.order)),
      ...(omitted === undefined ? {} : { omitted }),
    }),
  }
  byMode[mode] = presented
  return presented
}

/** Registered tools listed beside the presenter's, held to the same budget as a native prompt. */
export function withinNativeBudget(scope: PipelineScope, schemas: ToolPrompt['tools']): ToolPrompt {
  return cachedNativePrompt(schemas, scope.core.promptBudget ?? defaultNativePromptBudget)
}

/**
 * The lists of left-out tools as one, by name, each tool once (the first list's reason wins); undefined when no list
 * left anything out.
 */
export function mergeOmitted(...lists: (readonly OmittedTool[] | undefined)[]): readonly OmittedTool[] | undefined {
  const byName = new Map<string, OmittedTool>()
  for (const tool of lists.flatMap((list) => list ?? [])) if (!byName.has(tool.name)) byName.set(tool.name, tool)
  if (byName.size === 0) return undefined
  const names = [...byName.keys()].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0))
  return Object.freeze(names.map((name) => byName.get(name)!))
}
