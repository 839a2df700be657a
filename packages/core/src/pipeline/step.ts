import { isPromiseLike } from './call-outcome.js'

/** What a stage answers: the value now, or a promise of it. */
export type Step<Value> = Value | PromiseLike<Value>

/**
 * The pipeline's one `next`. Hands a stage's answer to `then` at once when it is ready, else once it settles, and a
 * rejection to `otherwise`; a call whose stages all answer synchronously so costs no promise. `state` and `position`
 * ride along so that the continuations can be plain functions rather than closures made per call.
 */
export function andThen<Value, Result, State>(
  answer: Step<Value>,
  state: State,
  position: number,
  then: (state: State, value: Value, position: number) => Step<Result>,
  otherwise: (state: State, thrown: unknown, position: number) => Step<Result>,
): Step<Result> {
  if (!isPromiseLike(answer)) return then(state, answer, position)
  return Promise.resolve(answer).then(
    (value) => then(state, value, position),
    (thrown: unknown) => otherwise(state, thrown, position),
  )
}
