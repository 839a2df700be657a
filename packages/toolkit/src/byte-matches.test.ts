import { describe, expect, it } from 'vitest'
import { countMatches, replaceMatches } from './byte-matches.js'

const signal = new AbortController().signal

describe('countMatches and replaceMatches', () => {
  it.each([
    ['aaaaa', 'aa', 'b'],
    ['let a = 1\nlet b = 1\n', '= 1', '= 22'],
    ['ééé', 'é', 'e'],
    ['x'.repeat(100), 'x', 'y'.repeat(40)],
    [`${'-'.repeat(50)}|${'-'.repeat(50)}`, '|', ''],
    ['€a€', '€', '$&'],
  ])('agree with String#split and join on %j / %j', async (text, needle, replacement) => {
    const haystack = Buffer.from(text)
    const count = await countMatches(haystack, Buffer.from(needle), signal)
    expect(count).toBe(text.split(needle).length - 1)
    const replaced = await replaceMatches(haystack, Buffer.from(needle), Buffer.from(replacement), count, signal)
    expect(replaced.toString('utf8')).toBe(text.split(needle).join(replacement))
  })

  it('lets timers run while it works through ten million matches', async () => {
    const haystack = Buffer.alloc(10 * 1024 * 1024, '\n')
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const count = await countMatches(haystack, Buffer.from('\n'), signal)
    const replaced = await replaceMatches(haystack, Buffer.from('\n'), Buffer.from('  '), count, signal)
    clearInterval(timer)
    expect(count).toBe(10 * 1024 * 1024)
    expect(replaced.length).toBe(20 * 1024 * 1024)
    expect(ticks).toBeGreaterThan(5)
  })

  it('stops when the call is aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('caller gave up'))
    await expect(
      countMatches(Buffer.alloc(10 * 1024 * 1024, '\n'), Buffer.from('\n'), controller.signal),
    ).rejects.toThrow('caller gave up')
  })
})
