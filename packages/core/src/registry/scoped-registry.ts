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
  /** The name the latest registration or disposal touched, at the version it made; masks leave it behind. */
  lastTool: { readonly version: number; readonly name: string } | undefined
}

/** What one scope sees, recomputed only when its layer or the global layer changed. */
export interface VisibleSet {
  readonly globalVersion: number
  readonly ownVersion: number
  /**
   * Handed on to the set that replaces this one after a single registration or disposal, and updated there, so
   * adding a tool costs no copy of the map: read it from the current set.
   */
  readonly byName: ReadonlyMap<string, RegistryEntry>
  /** Sorted by name, code unit by code unit, so the order is byte-stable across runs and registration orders. */
  readonly entries: readonly RegistryEntry[]
  readonly schemas: readonly ToolSchema[]
  /**
   * The one name that differs from the set this one was patched from, so what is derived from that set can be
   * patched too; undefined after a full recompute, and dropped once a later set is patched from this one.
   */
  readonly change?: VisibleChange | undefined
}

/** One name's entry before and after, between a visible set and the one patched from it. */
export interface VisibleChange {
  readonly previous: VisibleSet
  readonly name: string
  readonly before: RegistryEntry | undefined
  readonly after: RegistryEntry | undefined
}

function createLayer(agentId: string | undefined): RegistryLayer {
  return {
    agentId,
    tools: new Map(),
    masks: [],
    presentations: [],
    mode: undefined,
    version: 0,
    view: undefined,
    lastTool: undefined,
  }
}

const byName = (left: RegistryEntry, right: RegistryEntry) =>
  left.name < right.name ? -1 : left.name > right.name ? 1 : 0

/** The index of `name` in a list sorted by name, or where it would go. */
export function insertionPoint(entries: readonly { readonly name: string }[], name: string): number {
  let low = 0
  let high = entries.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((entries[middle] as { readonly name: string }).name < name) low = middle + 1
    else high = middle
  }
  return low
}

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
    layer.lastTool = { version: layer.version, name: entry.name }
    this.#changed()
    return createDisposer(() => {
      if (layer.tools.get(entry.name) !== entry) return
      layer.tools.delete(entry.name)
      layer.version++
      layer.lastTool = { version: layer.version, name: entry.name }
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
    const name = view === undefined ? undefined : this.#onlyChange(layer, view)
    return view !== undefined && name !== undefined ? this.#patch(layer, view, name) : this.#recompute(layer)
  }

  /** The one name changed since `view`, when exactly one registration or disposal in one layer happened since. */
  #onlyChange(layer: RegistryLayer, view: VisibleSet): string | undefined {
    const global = this.global
    const own = layer.lastTool
    if (view.ownVersion === layer.version - 1 && own?.version === layer.version) {
      return layer === global || view.globalVersion === global.version ? own.name : undefined
    }
    const inherited = global.lastTool
    if (layer !== global && view.ownVersion === layer.version && view.globalVersion === global.version - 1) {
      return inherited?.version === global.version ? inherited.name : undefined
    }
    return undefined
  }

  /** What `name` resolves to in `layer`: its own tool, else the global one its masks let through. */
  #resolveOne(layer: RegistryLayer, name: string): RegistryEntry | undefined {
    const own = layer === this.global ? undefined : layer.tools.get(name)
    if (own !== undefined) return own
    const inherited = this.global.tools.get(name)
    if (inherited === undefined) return undefined
    const masks = layer === this.global ? this.global.masks : [...this.global.masks, ...layer.masks]
    return masks.every((mask) => mask(inherited.definition)) ? inherited : undefined
  }

  /** The view after one name changed: a binary search and one splice, instead of a sort of every tool. */
  #patch(layer: RegistryLayer, view: VisibleSet, name: string): VisibleSet {
    const before = view.byName.get(name)
    const after = this.#resolveOne(layer, name)
    let { entries, schemas } = view
    if (before !== after) {
      const byName = view.byName as Map<string, RegistryEntry>
      if (after === undefined) byName.delete(name)
      else byName.set(name, after)
      const at = insertionPoint(entries, name)
      const list = entries.slice()
      const shapes = schemas.slice()
      if (after === undefined) {
        list.splice(at, 1)
        shapes.splice(at, 1)
      } else {
        list.splice(at, before === undefined ? 0 : 1, after)
        shapes.splice(at, before === undefined ? 0 : 1, after.schema)
      }
      entries = Object.freeze(list)
      schemas = Object.freeze(shapes)
    }
    const patched: VisibleSet = {
      globalVersion: this.global.version,
      ownVersion: layer.version,
      byName: view.byName,
      entries,
      schemas,
      change: { previous: view, name, before, after },
    }
    // Only the latest step is kept, so a long run of registrations holds no chain of old sets.
    ;(view as { change?: VisibleChange | undefined }).change = undefined
    layer.view = patched
    return patched
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
