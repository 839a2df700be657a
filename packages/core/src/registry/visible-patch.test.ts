import { describe, expect, it } from 'vitest'
import type { AnyToolDefinition } from '../definition/tool-definition.js'
import type { Disposer } from './disposer.js'
import { type RegistryLayer, ScopedRegistry, type VisibleSet } from './scoped-registry.js'

const definition = (name: string): AnyToolDefinition =>
  Object.freeze({
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object' as const },
    execute: () => name,
  })

/** What a full recompute gives: the same registrations and masks in a registry that never patched. */
function recomputed(registry: ScopedRegistry, layer: RegistryLayer): VisibleSet {
  const fresh = new ScopedRegistry()
  for (const entry of registry.global.tools.values()) fresh.register(fresh.global, entry.definition)
  for (const mask of registry.global.masks) fresh.restrict(fresh.global, mask)
  if (layer === registry.global) return fresh.visible(fresh.global)
  const own = fresh.openLayer('agent')
  for (const entry of layer.tools.values()) fresh.register(own, entry.definition)
  for (const mask of layer.masks) fresh.restrict(own, mask)
  return fresh.visible(own)
}

/** A small deterministic generator, so a failing sequence can be replayed. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state / 2_147_483_648
  }
}

describe('patched visible sets', () => {
  it('equal a full recompute after every registration, disposal, shadowing and mask, in both layers', () => {
    const next = random(7)
    const registry = new ScopedRegistry()
    const agent = registry.openLayer('agent')
    const disposers: Disposer[] = []
    const pool = Array.from({ length: 40 }, (_, index) => `tool_${String(index).padStart(2, '0')}`)
    let patched = 0
    for (let step = 0; step < 600; step++) {
      const layer = next() < 0.5 ? registry.global : agent
      const roll = next()
      if (roll < 0.55) {
        const name = pool[Math.floor(next() * pool.length)] as string
        if (!layer.tools.has(name)) disposers.push(registry.register(layer, definition(name)))
      } else if (roll < 0.95 && disposers.length > 0) {
        disposers.splice(Math.floor(next() * disposers.length), 1)[0]?.dispose()
      } else {
        const hidden = pool[Math.floor(next() * pool.length)]
        disposers.push(registry.restrict(layer, (tool) => tool.name !== hidden))
      }
      for (const scope of next() < 0.5 ? [registry.global, agent] : [agent, registry.global]) {
        const view = registry.visible(scope)
        if (view.change !== undefined) patched++
        const expected = recomputed(registry, scope)
        expect(view.entries.map((entry) => entry.definition)).toEqual(expected.entries.map((entry) => entry.definition))
        expect(view.schemas).toEqual(expected.schemas)
        expect([...view.byName.keys()].sort()).toEqual([...expected.byName.keys()].sort())
        for (const [name, entry] of expected.byName) expect(view.byName.get(name)?.definition).toBe(entry.definition)
      }
    }
    // The sequence must exercise the patch, not only the full recompute.
    expect(patched).toBeGreaterThan(200)
  })

  it('keeps only the latest step, so old sets are not held in a chain', () => {
    const registry = new ScopedRegistry()
    registry.register(registry.global, definition('a'))
    const first = registry.visible(registry.global)
    registry.register(registry.global, definition('b'))
    const second = registry.visible(registry.global)
    expect(second.change?.previous).toBe(first)
    registry.register(registry.global, definition('c'))
    const third = registry.visible(registry.global)
    expect(third.change?.previous).toBe(second)
    expect(second.change).toBeUndefined()
  })
})
