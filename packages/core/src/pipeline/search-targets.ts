import type { RegistryEntry } from '../registry/registry-entry.js'
import { registryEntryFor } from '../registry/registry-entry.js'
import type { RegistryLayer } from '../registry/scoped-registry.js'
import type { ToolSchema } from '../registry/tool-schema.js'
import { foundTools } from '../tool-search/found-tools.js'
import {
  codeSearchAnswer,
  codeSearchDescription,
  nativeSearchAnswer,
  nativeSearchDescription,
} from '../tool-search/search-answers.js'
import {
  DESCRIBE_TOOL_NAME,
  describeToolDefinition,
  SEARCH_TOOLS_NAME,
  searchToolsDefinition,
} from '../tool-search/search-tools-tool.js'
import { type SearchView, searchView } from '../tool-search/search-view.js'
import type { ResolvedToolSearch } from '../tool-search/tool-search-options.js'
import type { CallTarget, PipelineScope, SearchTargets } from './call-run.js'

interface LayerTargets {
  readonly native: RegistryEntry
  readonly code: RegistryEntry | undefined
  readonly describe: RegistryEntry | undefined
}

interface NativeListing {
  readonly entries: readonly RegistryEntry[]
  readonly found: number
  readonly tools: readonly ToolSchema[]
}

/**
 * Tool search for one runtime: which tools each scope lists, and the `search_tools` (and, in programs,
 * `describe_tool`) targets, built once per layer as ordinary definitions so their calls run the whole pipeline.
 */
export class ToolSearchTargets implements SearchTargets {
  readonly options: ResolvedToolSearch
  readonly #declarations: ((tools: readonly RegistryEntry[]) => string) | undefined
  readonly #targets = new WeakMap<RegistryLayer, LayerTargets>()
  readonly #listings = new WeakMap<RegistryLayer, NativeListing>()

  constructor(options: ResolvedToolSearch, declarations: ((tools: readonly RegistryEntry[]) => string) | undefined) {
    this.options = options
    this.#declarations = declarations
  }

  view(scope: PipelineScope): SearchView {
    return searchView(scope.core.registry.visible(scope.layer), this.options)
  }

  /**
   * What native mode lists: the always-listed tools, then `search_tools`, then each found tool in the order found,
   * so a search only ever appends to what the model saw before.
   */
  nativeTools(scope: PipelineScope): readonly ToolSchema[] {
    const view = this.view(scope)
    if (!view.active) return scope.core.registry.visible(scope.layer).schemas
    const found = foundTools(scope.layer)
    const cached = this.#listings.get(scope.layer)
    if (cached !== undefined && cached.entries === view.deferred && cached.found === found.version) return cached.tools
    const byName = scope.core.registry.visible(scope.layer).byName
    const appended = found.names.flatMap((name) => {
      const entry = byName.get(name)
      return entry === undefined || entry.definition.deferLoading === false ? [] : [entry.schema]
    })
    const tools = Object.freeze([
      ...view.listed.map((entry) => entry.schema),
      this.#layerTargets(scope).native.schema,
      ...appended,
    ])
    this.#listings.set(scope.layer, { entries: view.deferred, found: found.version, tools })
    return tools
  }

  split(scope: PipelineScope): SearchView | undefined {
    const view = this.view(scope)
    return view.active ? view : undefined
  }

  find(scope: PipelineScope, name: string, subCall: boolean): CallTarget | undefined {
    if (name !== SEARCH_TOOLS_NAME && name !== DESCRIBE_TOOL_NAME) return undefined
    if (!this.view(scope).active) return undefined
    const targets = this.#layerTargets(scope)
    if (!subCall) return name === SEARCH_TOOLS_NAME ? targets.native : undefined
    return name === SEARCH_TOOLS_NAME ? (targets.code ?? targets.native) : targets.describe
  }

  names(scope: PipelineScope, subCall: boolean): readonly string[] {
    if (!this.view(scope).active) return []
    return !subCall || this.#declarations === undefined ? [SEARCH_TOOLS_NAME] : [SEARCH_TOOLS_NAME, DESCRIBE_TOOL_NAME]
  }

  #layerTargets(scope: PipelineScope): LayerTargets {
    let targets = this.#targets.get(scope.layer)
    if (targets !== undefined) return targets
    const visible = () => scope.core.registry.visible(scope.layer)
    const view = () => this.view(scope)
    const found = foundTools(scope.layer)
    const native = searchToolsDefinition({
      description: nativeSearchDescription,
      search: this.options,
      visible,
      view: () => view(),
      answer: nativeSearchAnswer,
      onFound: (entries) => {
        if (view().active) found.add(entries.map((entry) => entry.name))
      },
    })
    const declarations = this.#declarations
    targets = {
      native: registryEntryFor(native),
      code:
        declarations === undefined
          ? undefined
          : registryEntryFor(
              searchToolsDefinition({
                description: codeSearchDescription,
                search: this.options,
                visible,
                view: () => view(),
                answer: (entries) => codeSearchAnswer(entries, entries.length === 0 ? '' : declarations(entries)),
              }),
            ),
      describe:
        declarations === undefined
          ? undefined
          : registryEntryFor(
              describeToolDefinition(visible, (entry) => ({ name: entry.name, declarations: declarations([entry]) })),
            ),
    }
    this.#targets.set(scope.layer, targets)
    return targets
  }
}
