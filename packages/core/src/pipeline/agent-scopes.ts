import { createDisposer, type Disposer } from '../registry/disposer.js'
import type { PipelineScope, RuntimeCore } from './call-run.js'

/** One agent's scope and who holds it. */
interface HeldScope {
  readonly scope: PipelineScope
  holders: number
  /** `onToolsChanged` subscriptions made in the scope: they watch the registry itself, so they end with the scope. */
  readonly watchers: Set<Disposer>
}

/**
 * The live agent scopes of one runtime, counted by the views that hold them. Every `agent(id)` view of one id
 * shares one scope; when the last is disposed, the scope's layer, listeners and watchers go, and the next
 * `agent(id)` starts empty.
 */
export class AgentScopes {
  readonly #core: RuntimeCore
  readonly #held = new Map<string, HeldScope>()

  constructor(core: RuntimeCore) {
    this.#core = core
  }

  get size(): number {
    return this.#held.size
  }

  acquire(agentId: string): PipelineScope {
    let held = this.#held.get(agentId)
    if (held === undefined) {
      const scope: PipelineScope = {
        agentId,
        layer: this.#core.registry.openLayer(agentId),
        listeners: this.#core.listeners.createScope(),
        core: this.#core,
      }
      held = { scope, holders: 0, watchers: new Set() }
      this.#held.set(agentId, held)
    }
    held.holders++
    return held.scope
  }

  /** Ties a watcher to the scope: it is disposed with the scope if nobody disposed it first. */
  watch(scope: PipelineScope, watcher: Disposer): Disposer {
    const watchers = this.#heldOf(scope)?.watchers
    if (watchers === undefined) return watcher
    watchers.add(watcher)
    return createDisposer(() => {
      watchers.delete(watcher)
      watcher.dispose()
    })
  }

  release(scope: PipelineScope): void {
    const held = this.#heldOf(scope)
    if (held === undefined || --held.holders > 0) return
    this.#held.delete(held.scope.agentId as string)
    this.#core.registry.closeLayer(scope.layer)
    for (const watcher of held.watchers) watcher.dispose()
    held.watchers.clear()
  }

  #heldOf(scope: PipelineScope): HeldScope | undefined {
    const held = scope.agentId === undefined ? undefined : this.#held.get(scope.agentId)
    return held?.scope === scope ? held : undefined
  }
}
