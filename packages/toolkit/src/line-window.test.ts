import { describe, expect, it } from 'vitest'
import { lineWindow } from './line-window.js'

const signal = new AbortController().signal

/** What read_file did before it scanned bytes: split the whole decoded text. */
function splitWindow(text: string, startLine: number, limit: number) {
  const lines = text.length === 0 ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/)
  const window = lines.slice(startLine - 1, startLine - 1 + limit)
  return { content: window.join('\n'), endLine: startLine + window.length - 1, totalLines: lines.length }
}

const texts = [
  '',
  'a',
  'a\n',
  '\n',
  '\n\n',
  'a\r\n',
  'a\r',
  '\r',
  '\r\n\r\n',
  'a\r\nb',
  'x\n\ny\n',
  'é\nü\r\n€',
  'a\nb\nc\nd',
]

describe('lineWindow', () => {
  it.each(texts)('matches splitting the whole text for %j at every offset and limit', async (text) => {
    for (let startLine = 1; startLine <= 6; startLine++) {
      for (const limit of [1, 2, 3, 10]) {
        expect(await lineWindow(Buffer.from(text), startLine, limit, signal)).toEqual(
          splitWindow(text, startLine, limit),
        )
      }
    }
  })

  it('counts ten million line breaks in one pass over the bytes, letting timers run meanwhile', async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const started = performance.now()
    expect(await lineWindow(Buffer.alloc(10 * 1024 * 1024, '\n'), 5_000_000, 2, signal)).toEqual({
      content: '\n',
      endLine: 5_000_001,
      totalLines: 10 * 1024 * 1024,
    })
    expect(performance.now() - started).toBeLessThan(1_000)
    clearInterval(timer)
    expect(ticks).toBeGreaterThan(0)
  })
})
