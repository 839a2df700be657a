import type { Context, Span } from '@opentelemetry/api'
import type { CallInfo } from '../pipeline/pipeline-events.js'

/**
 * One call's span while the call runs: the span, the context that holds it (undefined when the span records
 * nothing and changes no context, so there is nothing to make active), and how often its body was entered.
 */
export interface CallSpan {
  readonly call: CallInfo
  readonly span: Span
  readonly context: Context | undefined
  attempts: number
}

/**
 * The spans of calls in flight, by call id: what a sub-call finds its `run_code` call's span by. Two calls may share
 * an id (a model that reuses ids, or two agents), so each id holds a chain of its spans in start order. The chain is
 * links, not an array: the common id holds one span and allocates nothing more; an id is a key as it is, never a
 * string built per call.
 */
export class CallSpans {
  readonly #byId = new Map<string, Link>()

  add(entry: CallSpan): void {
    const link: Link = { entry, next: undefined }
    let last = this.#byId.get(entry.call.id)
    if (last === undefined) {
      this.#byId.set(entry.call.id, link)
      return
    }
    while (last.next !== undefined) last = last.next
    last.next = link
  }

  /** The oldest top-level call of this agent with this id still in flight: the program a sub-call belongs to. */
  program(agentId: string | undefined, id: string): CallSpan | undefined {
    for (let link = this.#byId.get(id); link !== undefined; link = link.next) {
      const { call } = link.entry
      if (call.agentId === agentId && call.parentId === undefined) return link.entry
    }
    return undefined
  }

  /** Forgets this span. */
  remove(entry: CallSpan): void {
    const id = entry.call.id
    const first = this.#byId.get(id)
    if (first === undefined) return
    if (first.entry === entry) {
      if (first.next === undefined) this.#byId.delete(id)
      else this.#byId.set(id, first.next)
      return
    }
    for (let link = first; link.next !== undefined; link = link.next) {
      if (link.next.entry === entry) {
        link.next = link.next.next
        return
      }
    }
  }

  /** Removes and returns every span still in flight. */
  drain(): CallSpan[] {
    const all: CallSpan[] = []
    for (const first of this.#byId.values()) {
      for (let link: Link | undefined = first; link !== undefined; link = link.next) all.push(link.entry)
    }
    this.#byId.clear()
    return all
  }
}

interface Link {
  readonly entry: CallSpan
  next: Link | undefined
}
