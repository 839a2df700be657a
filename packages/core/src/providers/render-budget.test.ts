import { describe, expect, it } from 'vitest'
import { isRenderBudgetError, jsonBytesUpTo, RenderBudgetError, WorkMeter } from './render-budget.js'

describe('WorkMeter', () => {
  it('stops a render past its steps with a branded error naming the limit', () => {
    const meter = new WorkMeter(10, 1_000)
    meter.spend(10)
    const thrown = (() => {
      try {
        meter.spend()
      } catch (error) {
        return error
      }
    })()
    expect(isRenderBudgetError(thrown)).toBe(true)
    expect(thrown).toMatchObject({ limit: 'work', message: 'rendering it took more than 10 steps' })
  })

  it('stops a render past its deadline, reading the clock only every few thousand steps', () => {
    const meter = new WorkMeter(Number.POSITIVE_INFINITY, 5)
    const started = performance.now()
    expect(() => {
      for (;;) meter.spend()
    }).toThrow('rendering it took more than 5 ms')
    expect(performance.now() - started).toBeLessThan(100)
  })

  it('is recognised across copies of the package by its brand, and nothing else is', () => {
    // Another copy's class carries the same registry symbol on its prototype.
    const copiedPrototype = Object.defineProperty(
      Object.create(Error.prototype),
      Symbol.for('qilin-tools.RenderBudgetError'),
      {
        value: true,
      },
    )
    expect(isRenderBudgetError(Object.create(copiedPrototype))).toBe(true)
    expect(isRenderBudgetError(new Error('rendering it took more than 10 steps'))).toBe(false)
    expect(new RenderBudgetError('time', 'x').name).toBe('RenderBudgetError')
  })
})

describe('jsonBytesUpTo', () => {
  it('matches JSON.stringify for plain ASCII values', () => {
    const value = { a: [1, 'two', null, true, { b: [] }], c: {} }
    expect(jsonBytesUpTo(value, 1_000)).toBe(JSON.stringify(value).length)
  })

  it('stops just past the limit instead of reading a huge value', () => {
    // Counted, not timed: how many of a million enum values it read (the separators alone already pass 1,000).
    let itemsRead = 0
    const values = new Proxy(
      Array.from({ length: 1_000_000 }, (_, index) => `value-${index}`),
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) itemsRead++
          return Reflect.get(target, key, receiver)
        },
      },
    )
    const huge = { properties: { a: { enum: values } } }
    expect(jsonBytesUpTo(huge, 1_000)).toBeGreaterThan(1_000)
    expect(itemsRead).toBeLessThan(200)
    expect(jsonBytesUpTo({ text: 'x'.repeat(5_000), more: ['y'.repeat(5_000)] }, 1_000)).toBe(5_011)
  })
})
