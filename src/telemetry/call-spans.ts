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
 * those (a model that reuses ids), so each key keeps its spans in start order and a result takes the oldest.
 */
export class CallSpans {
  readonly #byKey = new Map<string, CallSpan[]>()

  add(key: string, entry: CallSpan): void {
    const list = this.#byKey.get(key)
    if (list === undefined) this.#byKey.set(key, [entry])
    else list.push(entry)
  }

  /** The oldest span under `key`, still in flight. */
  peek(key: string): CallSpan | undefined {
    return this.#byKey.get(key)?.[0]
  }

  /** Removes and returns the oldest span under `key`. */
  take(key: string): CallSpan | undefined {
    const list = this.#byKey.get(key)
    if (list === undefined) return undefined
    const entry = list.shift()
    if (list.length === 0) this.#byKey.delete(key)
    return entry
  }

  /** Removes and returns every span still in flight. */
  drain(): CallSpan[] {
    const all = [...this.#byKey.values()].flat()
    this.#byKey.clear()
    return all
  }
}

/** The key of a call: its agent, the `run_code` call it came from, and its id. */
export function callKey(agentId: string | undefined, parentId: string | undefined, id: string): string {
  return `${agentId ?? ''}\u0000${parentId ?? ''}\u0000${id}`
}
