import { describe, expect, it } from 'vitest'
import type { StandardSchemaLike } from './standard-schema.js'
import { runStandardValidate } from './standard-validate.js'

/** A Standard Schema whose validate answers `value` for any input, as a library's parse would. */
function answering(value: unknown): StandardSchemaLike {
  return { '~standard': { version: 1, vendor: 'probe', validate: () => ({ value }) } } as StandardSchemaLike
}

function parsedValue(value: unknown): unknown {
  const verdict = runStandardValidate(answering(value), {})
  if (!('kind' in verdict) || verdict.kind !== 'valid') throw new Error('expected a valid verdict')
  return verdict.value
}

describe('the value a library parsed is frozen before anyone sees it', () => {
  it('freezes plain objects, null-prototype objects and arrays at every level', () => {
    const bare = Object.assign(Object.create(null) as object, { tags: ['a'] })
    const value = { list: [{ name: 'x' }, [1, [2]]], bare }
    parsedValue(value)
    const nested = value.list[1] as unknown[]
    for (const part of [value, value.list, value.list[0], nested, nested[1], bare, (bare as { tags: unknown }).tags]) {
      expect(Object.isFrozen(part)).toBe(true)
    }
  })

  it('leaves class instances as the library made them, and ends on a cyclic value', () => {
    const when = new Date(0)
    const cyclic: Record<string, unknown> = { when, members: new Map([['k', 1]]) }
    cyclic.self = cyclic
    cyclic.list = [cyclic]
    expect(parsedValue(cyclic)).toBe(cyclic)
    expect(Object.isFrozen(cyclic) && Object.isFrozen(cyclic.list)).toBe(true)
    expect(Object.isFrozen(when) || Object.isFrozen(cyclic.members)).toBe(false)
  })

  it('stops 64 levels down and leaves what lies deeper as it was', () => {
    const root: { next?: unknown } = {}
    let tail = root
    for (let level = 0; level < 100; level++) {
      const next = {}
      tail.next = next
      tail = next
    }
    parsedValue(root)
    const levels: boolean[] = []
    for (let node: { next?: unknown } | undefined = root; node; node = node.next as typeof node) {
      levels.push(Object.isFrozen(node))
    }
    expect(levels.indexOf(false)).toBe(65)
    expect(levels.slice(65).every((frozen) => !frozen)).toBe(true)
  })
})
