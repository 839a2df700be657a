import type { Context, Span } from '@opentelemetry/api'
import type { CallInfo } from '../pipeline/pipeline-events.js'

/** One call's span while the call runs: the span, the context that holds it, and how often its body was entered. */
export interface CallSpan {
  readonly call: CallInfo
  readonly span: Span
  readonly context: Context
  attempts: number
}

/**
 * The spans of calls in flight. A result names its call only by id, agent and parent, and two calls may share
 * those (a model that reuses ids), so each key holds a chain of its spans in start order and a result takes the
 * oldest. The chain is links, not an array: the common key holds one span and allocates nothing more.
 */
export class CallSpans {
  readonly #byKey = new Map<string, Link>()

  add(key: string, entry: CallSpan): void {
    const link: Link = { entry, next: undefined }
    let last = this.#byKey.get(key)
    if (last === undefined) {
      this.#byKey.set(key, link)
      return
    }
    while (last.next !== undefined) last = last.next
    last.next = link
  }

  /** The oldest span under `key`, still in flight. */
  peek(key: string): CallSpan | undefined {
    return this.#byKey.get(key)?.entry
  }

  /** Removes and returns the oldest span under `key`. */
  take(key: string): CallSpan | undefined {
    const first = this.#byKey.get(key)
    if (first === undefined) return undefined
    if (first.next === undefined) this.#byKey.delete(key)
    else this.#byKey.set(key, first.next)
    return first.entry
  }

  /** Removes and returns every span still in flight. */
  drain(): CallSpan[] {
    const all: CallSpan[] = []
    for (const first of this.#byKey.values()) {
      for (let link: Link | undefined = first; link !== undefined; link = link.next) all.push(link.entry)
    }
    this.#byKey.clear()
    return all
  }
}

interface Link {
  readonly entry: CallSpan
  next: Link | undefined
}

/** The key of a call: its agent, the `run_code` call it came from, and its id. */
export function callKey(agentId: string | undefined, parentId: string | undefined, id: string): string {
  return `${agentId ?? ''}\u0000${parentId ?? ''}\u0000${id}`
}
