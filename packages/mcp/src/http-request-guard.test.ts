import { describe, expect, it } from 'vitest'
import { createRequestGuard } from './http-request-guard.js'

const guard = createRequestGuard({
  host: '127.0.0.1',
  port: 4100,
  allowedHosts: ['mcp.example.test', 'proxy.example.test:8443'],
  allowedOrigins: ['https://app.example.test'],
})
const verdict = (headers: Record<string, string>) => guard(headers)?.header ?? 'allowed'

describe('createRequestGuard', () => {
  it.each([
    ['localhost:4100', 'allowed'],
    ['127.0.0.1:4100', 'allowed'],
    ['[::1]:4100', 'allowed'],
    ['LOCALHOST:4100', 'allowed'],
    ['mcp.example.test:1234', 'allowed'],
    ['proxy.example.test:8443', 'allowed'],
    ['localhost:4101', 'host'],
    ['localhost', 'host'],
    ['proxy.example.test:8444', 'host'],
    ['evil.example:4100', 'host'],
    ['127.0.0.1.evil.example:4100', 'host'],
    ['localhost:4100@evil.example', 'host'],
    ['', 'host'],
  ])('Host %j is %s', (host, expected) => {
    expect(verdict({ host })).toBe(expected === 'allowed' ? 'allowed' : 'host')
  })

  it('refuses a request without Host', () => {
    expect(guard({})).toEqual({ header: 'host', message: expect.stringContaining('(missing)') })
  })

  it.each([
    ['http://localhost:4100', 'allowed'],
    ['http://127.0.0.1:4100', 'allowed'],
    ['http://[::1]:4100', 'allowed'],
    ['HTTP://LOCALHOST:4100/', 'allowed'],
    ['https://app.example.test', 'allowed'],
    ['https://app.example.test:443', 'allowed'],
    ['http://localhost:3000', 'origin'],
    ['https://localhost:4100', 'origin'],
    ['http://app.example.test', 'origin'],
    ['http://evil.example:4100', 'origin'],
    ['null', 'origin'],
    ['not a url', 'origin'],
  ])('Origin %j is %s', (origin, expected) => {
    expect(verdict({ host: 'localhost:4100', origin })).toBe(expected)
  })

  it('accepts a request without Origin: non-browser clients send none', () => {
    expect(guard({ host: 'localhost:4100' })).toBeUndefined()
  })

  it('accepts the bound address, bracketing IPv6, and port-less names on port 80', () => {
    expect(createRequestGuard({ host: '::1', port: 9 })({ host: '[::1]:9', origin: 'http://[::1]:9' })).toBeUndefined()
    const wide = createRequestGuard({ host: '192.168.1.5', port: 80 })
    expect(wide({ host: '192.168.1.5' })).toBeUndefined()
    expect(wide({ host: 'localhost' })).toBeUndefined()
  })

  it('accepts no wildcard address as a name when bound to every interface', () => {
    for (const host of ['0.0.0.0', '::']) {
      const wide = createRequestGuard({ host, port: 4100, allowedHosts: ['box.lan'] })
      expect(wide({ host: host === '::' ? '[::]:4100' : '0.0.0.0:4100' })?.header).toBe('host')
      expect(wide({ host: 'localhost:4100' })).toBeUndefined()
      expect(wide({ host: 'box.lan:4100' })).toBeUndefined()
    }
  })

  it('quotes and truncates what it refuses', () => {
    const refused = guard({ host: `${'a'.repeat(5000)}"` })
    expect(refused?.message.length).toBeLessThan(300)
    expect(refused?.message).toMatch(/^Forbidden: Host header "a+" is not allowed \(see allowedHosts\)$/)
  })

  it('rejects entries that are not hosts or origins when it is made', () => {
    expect(() => createRequestGuard({ host: '127.0.0.1', port: 1, allowedHosts: ['http://x'] })).toThrow(
      'allowedHosts: "http://x" is not a host name or name:port',
    )
    expect(() => createRequestGuard({ host: '127.0.0.1', port: 1, allowedOrigins: ['example.test'] })).toThrow(
      'allowedOrigins: "example.test" is not an origin (scheme://host[:port])',
    )
  })
})
