import { describe, expect, it } from 'vitest'
import { openRedirectListener } from './oauth-redirect-listener.js'

const back = (redirectUrl: string, query: Record<string, string>) => {
  const url = new URL(redirectUrl)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  return fetch(url)
}

describe('openRedirectListener', () => {
  it('listens on 127.0.0.1, answers other paths 404 and keeps waiting, takes the code once, then closes', async () => {
    const listener = await openRedirectListener({ timeoutMs: 5_000 })
    expect(listener.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)
    expect((await fetch(new URL('/favicon.ico', listener.redirectUrl))).status).toBe(404)
    const answer = await back(listener.redirectUrl, { code: 'the-code', state: listener.state })
    expect(answer.status).toBe(200)
    await expect(listener.code).resolves.toBe('the-code')
    await expect(back(listener.redirectUrl, { code: 'second', state: listener.state })).rejects.toThrow()
  })

  it('refuses a state it did not send', async () => {
    const listener = await openRedirectListener({ timeoutMs: 5_000 })
    expect((await back(listener.redirectUrl, { code: 'c', state: 'forged' })).status).toBe(400)
    await expect(listener.code).rejects.toMatchObject({ code: 'STATE_MISMATCH' })
  })

  it('reports an error redirect as one printable, bounded line', async () => {
    const listener = await openRedirectListener({ timeoutMs: 5_000 })
    await back(listener.redirectUrl, {
      state: listener.state,
      error: 'access_denied',
      error_description: `no\nway\u001b[31m${'!'.repeat(500)}`,
    })
    const failure = (await listener.code.catch((error: unknown) => error)) as Error & { code: string }
    expect(failure.code).toBe('AUTHORIZATION_DENIED')
    expect(failure.message).toMatch(
      /^the authorization server redirected back with error "access_denied" \(no\?way\?\[31m!+…\)$/,
    )
    expect(failure.message.length).toBeLessThan(300)
  })

  it('gives up after its timeout, and when aborted', async () => {
    const timed = await openRedirectListener({ timeoutMs: 50 })
    await expect(timed.code).rejects.toMatchObject({ code: 'AUTHORIZATION_TIMEOUT' })
    await expect(fetch(timed.redirectUrl)).rejects.toThrow()
    const controller = new AbortController()
    const aborted = await openRedirectListener({ timeoutMs: 5_000, signal: controller.signal })
    controller.abort()
    await expect(aborted.code).rejects.toMatchObject({ code: 'AUTHORIZATION_TIMEOUT' })
  })
})
