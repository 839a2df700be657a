import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'

/** How `serve --http` authenticates clients: a bearer token, or nobody (an explicit opt-out). */
export type HttpAuth = { readonly token: string } | 'none'

/** Shorter tokens are guessable; the generated ones are 32 random bytes. */
export const MIN_TOKEN_LENGTH = 16

/** 32 random bytes, base64url: safe in a header, a URL and a shell. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url')
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()

/**
 * Checks `Authorization: Bearer <token>`. Both sides are hashed first, so `timingSafeEqual` always compares 32
 * bytes and neither the length nor a matching prefix of the expected token shows in the time taken.
 */
export function createBearerCheck(token: string): (authorization: string | undefined) => boolean {
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new InvalidArgumentError(`auth.token must be at least ${MIN_TOKEN_LENGTH} characters (got ${token.length})`)
  }
  const expected = digest(token)
  return (authorization) => {
    const match = authorization === undefined ? null : /^Bearer +(\S+) *$/i.exec(authorization)
    const offered = match?.[1] ?? ''
    // Compared even when the header is missing or malformed, so that case takes the same time.
    return timingSafeEqual(digest(offered), expected) && match !== null
  }
}
