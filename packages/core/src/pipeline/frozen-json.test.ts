import { describe, expect, it } from 'vitest'
import { copyFrozenJson, freezeParsed } from './frozen-json.js'

const HOSTILE_TEXT = '{"label":"x","nested":{"__proto__":{"admin":true}},"__proto__":{"limit":3}}'

/** The own data property named "__proto__", read without the accessor. */
function ownProto(value: object): unknown {
  return Object.getOwnPropertyDescriptor(value, '__proto__')?.value
}

describe('copyFrozenJson', () => {
  it('keeps an own "__proto__" key as an own data property at every level, never as the prototype', () => {
    const copy = copyFrozenJson(JSON.parse(HOSTILE_TEXT)) as Record<string, unknown>
    expect(JSON.stringify(copy)).toBe(HOSTILE_TEXT)
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.keys(copy)).toEqual(['label', 'nested', '__proto__'])
    expect(copy.limit).toBeUndefined()
    const nested = copy.nested as Record<string, unknown>
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype)
    expect(nested.admin).toBeUndefined()
    expect(ownProto(copy)).toEqual({ limit: 3 })
    expect(Object.isFrozen(copy) && Object.isFrozen(nested) && Object.isFrozen(ownProto(copy))).toBe(true)
    expect(({} as Record<string, unknown>).limit).toBeUndefined()
  })

  it('copies a null-prototype object to a plain one and refuses other prototypes', () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1 })
    expect(Object.getPrototypeOf(copyFrozenJson(bare))).toBe(Object.prototype)
    expect(copyFrozenJson(Object.create({ limit: 3 }) as object)).toBeUndefined()
  })
})

describe('freezeParsed', () => {
  it('freezes JSON.parse output in place, "__proto__" keys included', () => {
    const value = JSON.parse(HOSTILE_TEXT) as Record<string, unknown>
    expect(freezeParsed(value as never)).toBe(value)
    expect(ownProto(value)).toEqual({ limit: 3 })
    expect(Object.isFrozen(ownProto(value)) && Object.isFrozen(value.nested)).toBe(true)
    expect(JSON.stringify(value)).toBe(HOSTILE_TEXT)
  })
})
