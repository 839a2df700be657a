import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import { createDisposer, type Disposer } from '../registry/disposer.js'
import { composeWrappers, type Layer } from './execute-wrappers.js'
import type {
  ApprovalObserver,
  ExecuteWrapper,
  PostExecuteListener,
  PreExecuteListener,
  ResultObserver,
  ToolEventListeners,
  ToolEventName,
  ToolGuard,
} from './pipeline-events.js'

interface Registration<Listener> {
  readonly listener: Listener
  readonly order: number
  readonly sequence: number
}

/** One scope's own listeners. An agent's belong to its scope and go with it; the registry keeps no table of them. */
export interface ScopeListeners {
  readonly events: { [Event in ToolEventName]: Registration<ToolEventListeners[Event]>[] }
  readonly guards: Registration<ToolGuard>[]
  version: number
  merged: MergedListeners | undefined
}

/** The listeners one scope runs, merged from the global and the agent's own and sorted once per change. */
export interface MergedListeners {
  readonly globalVersion: number
  readonly ownVersion: number
  readonly preExecute: readonly PreExecuteListener[]
  readonly guards: readonly ToolGuard[]
  readonly execute: readonly ExecuteWrapper[]
  /** The `execute` wrappers composed around the body. */
  readonly onion: Layer
  readonly postExecute: readonly PostExecuteListener[]
  readonly approval: readonly ApprovalObserver[]
  readonly result: readonly ResultObserver[]
}

const eventNames = [
  'tools/pre-execute',
  'tools/execute',
  'tools/post-execute',
  'tools/approval',
  'tools/result',
] as const

function createScopeListeners(): ScopeListeners {
  return {
    events: {
      'tools/pre-execute': [],
      'tools/execute': [],
      'tools/post-execute': [],
      'tools/approval': [],
      'tools/result': [],
    },
    guards: [],
    version: 0,
    merged: undefined,
  }
}

const bySequence = (left: Registration<unknown>, right: Registration<unknown>) => left.sequence - right.sequence
const byOrder = (left: Registration<unknown>, right: Registration<unknown>) =>
  left.order - right.order || left.sequence - right.sequence

/** Listeners on the global scope run for every call; an agent's run only for that agent's calls. */
export class ListenerRegistry {
  readonly #global = createScopeListeners()
  #sequence = 0

  /** The listeners of a new agent scope, empty. */
  createScope(): ScopeListeners {
    return createScopeListeners()
  }

  on<Event extends ToolEventName>(
    owner: ScopeListeners | undefined,
    event: Event,
    listener: ToolEventListeners[Event],
    order = 0,
  ): Disposer {
    if (!eventNames.includes(event)) throw new InvalidArgumentError(`on: unknown event ${String(event)}`)
    if (typeof listener !== 'function') throw new InvalidArgumentError(`on(${event}): listener must be a function`)
    if (!Number.isFinite(order)) throw new InvalidArgumentError(`on(${event}): order must be a finite number`)
    const scope = owner ?? this.#global
    return this.#add(scope, scope.events[event] as Registration<ToolEventListeners[Event]>[], listener, order)
  }

  guard(owner: ScopeListeners | undefined, guard: ToolGuard): Disposer {
    if (typeof guard !== 'function') throw new InvalidArgumentError('guard: expected a function')
    const scope = owner ?? this.#global
    return this.#add(scope, scope.guards, guard, 0)
  }

  forScope(owner: ScopeListeners | undefined): MergedListeners {
    const own = owner ?? this.#global
    const merged = own.merged
    if (merged !== undefined && merged.ownVersion === own.version && merged.globalVersion === this.#global.version) {
      return merged
    }
    return this.#merge(own)
  }

  #add<Listener>(scope: ScopeListeners, list: Registration<Listener>[], listener: Listener, order: number): Disposer {
    const registration = { listener, order, sequence: this.#sequence++ }
    list.push(registration)
    scope.version++
    return createDisposer(() => {
      list.splice(list.indexOf(registration), 1)
      scope.version++
    })
  }

  #merge(own: ScopeListeners): MergedListeners {
    const global = this.#global
    const pick = <Event extends ToolEventName>(event: Event): ToolEventListeners[Event][] => {
      const registrations: Registration<ToolEventListeners[Event]>[] =
        own === global ? [...global.events[event]] : [...global.events[event], ...own.events[event]]
      return registrations.sort(byOrder).map((registration) => registration.listener)
    }
    const guards = own === global ? [...global.guards] : [...global.guards, ...own.guards]
    const execute = pick('tools/execute')
    const merged: MergedListeners = {
      globalVersion: global.version,
      ownVersion: own.version,
      preExecute: pick('tools/pre-execute'),
      guards: guards.sort(bySequence).map((registration) => registration.listener),
      execute,
      onion: composeWrappers(execute),
      postExecute: pick('tools/post-execute'),
      approval: pick('tools/approval'),
      result: pick('tools/result'),
    }
    own.merged = merged
    return merged
  }
}
