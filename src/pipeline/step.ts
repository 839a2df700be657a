import { isPromiseLike } from './call-outcome.js'

/** What a stage answers: the value now, or a native promise of it. */
export type Step<Value> = Value | Promise<Value>

/**
 * The pipeline's one `next`. Hands a stage's answer to `then` at once when it is ready, else once it settles, and a
 * rejection to `otherwise`; a call whose stages all answer synchronously so costs no promise. `state` and `position`
 * ride along so that the continuations can be plain functions rather than closures made per call.
 *
 * Pending answers are native promises (`answerOf` makes any thenable user code returns one), so telling them from
 * values is an `instanceof`, never a look for `then` on every outcome: that lookup sees many object shapes and was
 * worth about 60 ns per call on the pipeline bench.
 */
export function andThen<Value, Result, State>(
  answer: Step<Value>,
  state: State,
  position: number,
  then: (state: State, value: Value, position: number) => Step<Result>,
  otherwise: (state: State, thrown: unknown, position: number) => Step<Result>,
): Step<Result> {
  if (!(answer instanceof Promise)) return then(state, answer, position)
  return answer.then(
    (value) => then(state, value, position),
    (thrown: unknown) => otherwise(state, thrown, position),
  )
}

/** What a listener, wrapper or body returned, as a stage's answer: a thenable of any kind becomes a native promise. */
export function answerOf<Value>(returned: Value | PromiseLike<Value>): Step<Value> {
  if (returned instanceof Promise || !isPromiseLike(returned)) return returned as Step<Value>
  return Promise.resolve(returned)
}
