import { describe, expect, it } from 'vitest'
import type { AnyToolDefinition } from '../definition/tool-definition.js'
import type { Disposer } from '../registry/disposer.js'
import { ScopedRegistry } from '../registry/scoped-registry.js'
import { searchView } from './search-view.js'
import { resolveToolSearch } from './tool-search-options.js'

const search = resolveToolSearch({ threshold: 5 })

const definition = (name: string, pinned: boolean): AnyToolDefinition =>
  Object.freeze({
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object' as const },
    ...(pinned ? { deferLoading: false } : {}),
    execute: () => name,
  })

describe('search views', () => {
  it('patched from the view before are what a fresh build gives, prefix counts included', () => {
    const registry = new ScopedRegistry()
    const disposers: Disposer[] = []
    const prefixes = ['alpha__', 'beta__', 'beta-two__', '', 'gamma__']
    let seed = 11
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed / 2_147_483_648
    }
    let counted = 0
    for (let step = 0; step < 400; step++) {
      if (next() < 0.6 || disposers.length === 0) {
        const name = `${prefixes[Math.floor(next() * prefixes.length)]}tool_${Math.floor(next() * 30)}`
        if (!registry.global.tools.has(name)) {
          disposers.push(registry.register(registry.global, definition(name, next() < 0.15)))
        }
      } else disposers.splice(Math.floor(next() * disposers.length), 1)[0]?.dispose()
      const visible = registry.visible(registry.global)
      const view = searchView(visible, search)
      if (step % 3 === 0) view.prefixes()
      const fresh = new ScopedRegistry()
      for (const entry of visible.entries) fresh.register(fresh.global, entry.definition)
      const built = searchView(fresh.visible(fresh.global), search)
      expect(view.active).toBe(built.active)
      const definitions = (list: readonly { definition: AnyToolDefinition }[]) => list.map((entry) => entry.definition)
      expect(definitions(view.listed)).toEqual(definitions(built.listed))
      expect(definitions(view.deferred)).toEqual(definitions(built.deferred))
      expect(view.deferredSchemas).toEqual(built.deferredSchemas)
      expect(view.prefixes()).toEqual(built.prefixes())
      if (view.active && visible.change !== undefined) counted++
    }
    expect(counted).toBeGreaterThan(100)
  })

  it('is inactive at or under the threshold and with search off', () => {
    const registry = new ScopedRegistry()
    for (let index = 0; index < 5; index++) registry.register(registry.global, definition(`t${index}`, false))
    expect(searchView(registry.visible(registry.global), search).active).toBe(false)
    registry.register(registry.global, definition('t5', false))
    const view = searchView(registry.visible(registry.global), search)
    expect(view.active).toBe(true)
    expect(view.deferred).toHaveLength(6)
    expect(searchView(new ScopedRegistry().visible(registry.global), undefined).active).toBe(false)
  })
})
