import { describe, expect, it } from 'vitest'
import { thrownMessage } from './thrown-message.js'

describe('thrownMessage', () => {
  it('reads an Error message, or its name when the message is empty', () => {
    expect(thrownMessage(new Error('disk full'))).toBe('disk full')
    expect(thrownMessage(new RangeError(''))).toBe('RangeError')
  })

  it('keeps a thrown string and stringifies anything else', () => {
    expect(thrownMessage('plain text')).toBe('plain text')
    expect(thrownMessage(42)).toBe('42')
    expect(thrownMessage(null)).toBe('null')
    expect(thrownMessage(Symbol('tag'))).toBe('Symbol(tag)')
  })

  it('never throws, whatever the thrown value does when read', () => {
    const hostileToString = {
      toString() {
        throw new Error('no')
      },
    }
    const hostileMessage = new Error('x')
    Object.defineProperty(hostileMessage, 'message', {
      get() {
        throw new Error('no')
      },
    })
    const hostileProxy = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('no')
        },
      },
    )
    expect(thrownMessage(hostileToString)).toBe('unknown error')
    expect(thrownMessage(hostileMessage)).toBe('unknown error')
    expect(thrownMessage(hostileProxy)).toBe('unknown error')
    expect(thrownMessage(Object.create(null))).toBe('unknown error')
  })
})
