import { expect } from 'vitest'
import { isMcpAuthorizationError, type McpAuthorizationErrorCode } from '../oauth-error.js'

/** The error `promise` rejects with; fails the test if it resolves or rejects with something that is no Error. */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(failure).toBeInstanceOf(Error)
  return failure as Error
}

/** The code of the first McpAuthorizationError along `error`'s cause chain, if any. */
export function codeOf(error: unknown): McpAuthorizationErrorCode | undefined {
  for (let current = error; current !== undefined; current = (current as Error).cause) {
    if (isMcpAuthorizationError(current)) return current.code
    if (typeof current !== 'object' || current === null) return undefined
  }
  return undefined
}
