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
 * The spans of calls in flight, by the call every listener's event carries. A sub-call finds its `run_code` call's
 * span by call id instead, through an index built on the first such look-up and kept from then on: a runtime whose
 * calls make no sub-calls never builds it. Kept for every call, its map insert, delete and link were half the
 * instructions of the instrumentation's own share on the pipeline bench's sdk-trace-base row. Two calls may share an
 * id (a model that reuses ids, or two agents), so each id holds a chain of its spans in start order. The chain is
 * links, not an array: the common id holds one span and allocates nothing more; an id is a key as it is, never a
 * string built per call.
 */
export class CallSpans {
  readonly #byCall = new Map<CallInfo, CallSpan>()
  #byId: Map<string, Link> | undefined

  add(entry: CallSpan): void {
    this.#byCall.set(entry.call, entry)
    if (this.#byId !== undefined && isProgram(entry)) link(this.#byId, entry)
  }

  /** The span of this call, while it runs. */
  of(call: CallInfo): CallSpan | undefined {
    return this.#byCall.get(call)
  }

  /** The oldest top-level call of this agent with this id still in flight: the program a sub-call belongs to. */
  program(agentId: string | undefined, id: string): CallSpan | undefined {
    this.#byId ??= this.#index()
    for (let link = this.#byId.get(id); link !== undefined; link = link.next) {
      if (link.entry.call.agentId === agentId) return link.entry
    }
    return undefined
  }

  /** Forgets this span. */
  remove(entry: CallSpan): void {
    this.#byCall.delete(entry.call)
    if (this.#byId !== undefined && isProgram(entry)) unlink(this.#byId, entry)
  }

  /** Removes and returns every span still in flight. */
  drain(): CallSpan[] {
    const all = [...this.#byCall.values()]
    this.#byCall.clear()
    this.#byId = undefined
    return all
  }

  /** The calls in flight that a sub-call could belong to, by id, in start order (the map keeps insertion order). */
  #index(): Map<string, Link> {
    const byId = new Map<string, Link>()
    for (const entry of this.#byCall.values()) if (isProgram(entry)) link(byId, entry)
    return byId
  }
}

/** Only a top-level call whose span is made active can be a program whose sub-calls look for its span. */
function isProgram(entry: CallSpan): boolean {
  return entry.call.parentId === undefined && entry.context !== undefined
}

interface Link {
  readonly entry: CallSpan
  next: Link | undefined
}

function link(byId: Map<string, Link>, entry: CallSpan): void {
  const added: Link = { entry, next: undefined }
  let last = byId.get(entry.call.id)
  if (last === undefined) {
    byId.set(entry.call.id, added)
    return
  }
  while (last.next !== undefined) last = last.next
  last.next = added
}

function unlink(byId: Map<string, Link>, entry: CallSpan): void {
  const id = entry.call.id
  const first = byId.get(id)
  if (first === undefined) return
  if (first.entry === entry) {
    if (first.next === undefined) byId.delete(id)
    else byId.set(id, first.next)
    return
  }
  for (let link = first; link.next !== undefined; link = link.next) {
    if (link.next.entry === entry) {
      link.next = link.next.next
      return
    }
  }
}
