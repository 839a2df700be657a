import { describe, expect, it } from 'vitest'
import { readArguments, Unreadable } from './read-arguments.js'

describe('readArguments', () => {
  it('parses text and copies objects into the same frozen value', () => {
    const fromText = readArguments('{"a":[1,{"b":2}]}')
    const caller = { a: [1, { b: 2 }] }
    const fromObject = readArguments(caller as never)
    expect(fromText).toEqual(caller)
    expect(fromObject).toEqual(caller)
    expect(fromObject).not.toBe(caller)
    expect(Object.isFrozen(fromText)).toBe(true)
    expect(Object.isFrozen((fromObject as { a: unknown[] }).a[1])).toBe(true)
    expect(Object.isFrozen(caller)).toBe(false)
  })

  it('answers hostile arguments with a specific reason, at once', () => {
    const deepText = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    let deepObject: unknown = 1
    for (let level = 0; level < 100_000; level++) deepObject = { level: deepObject }
    const started = performance.now()
    const deep = readArguments(deepText)
    const lossy = readArguments({ n: Number.NaN } as never)
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const looped = readArguments(cyclic as never)
    const nested = readArguments(deepObject as never)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(deep).toBeInstanceOf(Unreadable)
    expect((deep as Unreadable).message('t')).toMatch(/^Invalid arguments for t: arguments nest .* deeper than/)
    for (const unreadable of [lossy, looped, nested]) {
      expect((unreadable as Unreadable).message('t')).toBe('Invalid arguments for t: arguments must be lossless JSON.')
    }
  })
})
