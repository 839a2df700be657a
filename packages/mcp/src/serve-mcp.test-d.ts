import { describe, expectTypeOf, it } from 'vitest'
import type { McpHttpTransport, McpServing, ServeMcpOptions } from './index.js'

describe('serveMcp options', () => {
  it('takes a token, an explicit opt-out, or nothing (a generated token) for auth', () => {
    expectTypeOf<{ http: { port: 0; auth: { token: 'a-token-long-enough' } } }>().toExtend<
      ServeMcpOptions['transport']
    >()
    expectTypeOf<{ http: { port: 0; auth: 'none' } }>().toExtend<ServeMcpOptions['transport']>()
    expectTypeOf<{ http: { port: 0 } }>().toExtend<ServeMcpOptions['transport']>()
    // @ts-expect-error: no other scheme
    const basic: McpHttpTransport = { port: 0, auth: 'basic' }
    // @ts-expect-error: a token is a string
    const numeric: McpHttpTransport = { port: 0, auth: { token: 42 } }
    void basic
    void numeric
  })

  it('reports the token on the serving, possibly absent', () => {
    expectTypeOf<McpServing['token']>().toEqualTypeOf<string | undefined>()
  })
})
