import type { AnyToolDefinition } from '../definition/tool-definition.js'
import { ToolRuntimeError } from '../errors/tool-runtime-error.js'
import { createDisposer, type Disposer } from './disposer.js'
import { type RegistryEntry, registryEntryFor } from './registry-entry.js'
import { type ToolFilter, type ToolPredicate, toToolPredicate } from './tool-filter.js'
import type { PresentationMode, ToolSchema } from './tool-schema.js'

/** One layer of registrations: the global one, or one agent's. */
export interface RegistryLayer {
  readonly agentId: string | undefined
  readonly tools: Map<string, RegistryEntry>
  readonly masks: ToolPredicate[]
  readonly presentations: { readonly mode: PresentationMode }[]
  /** The latest `presentAs` still in force here, kept beside the stack so lookups need no array walk. */
  mode: PresentationMode | undefined
  version: number
  view: VisibleSet | undefined
}

/** What one scope sees, recomputed only when its layer or the global layer changed. */
export interface VisibleSet {
  readonly globalVersion: number
  readonly ownVersion: number
  readonly byName: ReadonlyMap<string, RegistryEntry>
  /** Sorted by name, code unit by code unit, so the order is byte-stable across runs and registration orders. */
  readonly entries: readonly RegistryEntry[]
  readonly schemas: readonly ToolSchema[]
}

function createLayer(agentId: string | undefined): RegistryLayer {
  return { agentId, tools: new Map(), masks: [], presentations: [], mode: undefined, version: 0, view: undefined }
}

const byName = (left: RegistryEntry, right: RegistryEntry) =>
  left.name < right.name ? -1 : left.name > right.name ? 1 : 0

/**
 * Global registrations are inherited by every agent; an agent's own registrations add to or shadow them.
 * Masks from `restrict` hide inherited global tools only: a global mask applies in every scope, an agent's mask
 * in that agent. Masks intersect. Lookups read the scope's cached visible set, so they cost the same whatever
 * other agents hold.
 */
export class ScopedRegistry {
  readonly global: RegistryLayer = createLayer(undefined)
  readonly #agents = new Map<string, RegistryLayer>()
  readonly #changeListeners = new Set<() => void>()

  /** Calls `listener` after every registration, mask or presentation change, in any layer. */
  onChange(listener: () => void): Disposer {
    this.#changeListeners.add(listener)
    return createDisposer(() => {
      this.#changeListeners.delete(listener)
    })
  }

  #changed(): void {
    for (const listener of this.#changeListeners) listener()
  }

  /** The agents that hold a layer now. */
  get agentCount(): number {
    return this.#agents.size
  }

  /** The agent's layer, created empty when it has none. */
  openLayer(agentId: string): RegistryLayer {
    let layer = this.#agents.get(agentId)
    if (layer === undefined) {
      layer = createLayer(agentId)
      this.#agents.set(agentId, layer)
    }
    return layer
  }

  /**
   * Forgets an agent's layer with everything in it: the next `openLayer` for that id starts empty. Calls still
   * running in the old layer keep reading it; its leftover disposers touch only it.
   */
  closeLayer(layer: RegistryLayer): void {
    if (layer.agentId === undefined || this.#agents.get(layer.agentId) !== layer) return
    this.#agents.delete(layer.agentId)
  }

  register(layer: RegistryLayer, definition: AnyToolDefinition): Disposer {
    const entry = registryEntryFor(definition)
    if (layer.tools.has(entry.name)) {
      const where = layer.agentId === undefined ? 'the global scope' : `agent ${layer.agentId}`
      throw new ToolRuntimeError(`register: a tool named ${entry.name} is already registered in ${where}`)
    }
    layer.tools.set(entry.name, entry)
    layer.version++
    this.#changed()
    return createDisposer(() => {
      if (layer.tools.get(entry.name) !== entry) return
      layer.tools.delete(entry.name)
      layer.version++
      this.#changed()
    })
  }

  restrict(layer: RegistryLayer, filter: ToolFilter): Disposer {
    const predicate = toToolPredicate(filter)
    const mask = (definition: AnyToolDefinition) => predicate(definition)
    layer.masks.push(mask)
    layer.version++
    this.#changed()
    return createDisposer(() => {
      layer.masks.splice(layer.masks.indexOf(mask), 1)
      layer.version++
      this.#changed()
    })
  }

  presentAs(layer: RegistryLayer, mode: PresentationMode): Disposer {
    const token = { mode }
    layer.presentations.push(token)
    layer.mode = mode
    this.#changed()
    return createDisposer(() => {
      layer.presentations.splice(layer.presentations.indexOf(token), 1)
      layer.mode = layer.presentations[layer.presentations.length - 1]?.mode
      this.#changed()
    })
  }

  /** The scope's own choice, else the global one, else undefined (the configured default applies). */
  presentation(layer: RegistryLayer): PresentationMode | undefined {
    return layer.mode ?? this.global.mode
  }

  visible(layer: RegistryLayer): VisibleSet {
    const view = layer.view
    if (view !== undefined && view.ownVersion === layer.version && view.globalVersion === this.global.version) {
      return view
    }
    return this.#recompute(layer)
  }

  resolve(layer: RegistryLayer, name: string): RegistryEntry | undefined {
    return this.visible(layer).byName.get(name)
  }

  #recompute(layer: RegistryLayer): VisibleSet {
    const visible = new Map<string, RegistryEntry>()
    const masks = layer === this.global ? this.global.masks : [...this.global.masks, ...layer.masks]
    for (const entry of this.global.tools.values()) {
      if (masks.every((mask) => mask(entry.definition))) visible.set(entry.name, entry)
    }
    if (layer !== this.global) for (const entry of layer.tools.values()) visible.set(entry.name, entry)
    const entries = Object.freeze([...visible.values()].sort(byName))
    const view: VisibleSet = {
      globalVersion: this.global.version,
      ownVersion: layer.version,
      byName: visible,
      entries,
      schemas: Object.freeze(entries.map((entry) => entry.schema)),
    }
    layer.view = view
    return view
  }
}
