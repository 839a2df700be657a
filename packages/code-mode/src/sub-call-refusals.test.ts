import { byteLength } from 'qilin-tools/internal/definition/byte-length.js'
import { describe, expect, it } from 'vitest'
import { defaultPtcLimits } from './ptc-limits.js'
import { argumentRefusal, MAX_BYTES_PER_PARSED_CHARACTER, subCallRefusalText } from './sub-call-refusals.js'

const reserialisedBytes = (text: string) => byteLength(JSON.stringify(JSON.parse(text)))

describe('MAX_BYTES_PER_PARSED_CHARACTER', () => {
  it.each([
    ['a lone surrogate written raw', `{"a":"${'\ud800'.repeat(50)}"}`],
    ['a number that grows to 21 digits', '1e20'],
    ['numbers that grow', '[1e20,-1e20,0.1e21,1e-6,5e-324]'],
    ['characters of three UTF-8 bytes', `{"\u2028":"${'\u0800'.repeat(30)}"}`],
    ['escapes', '"\\u0000\\n\\"\\\\\\/\\ud800"'],
  ])('bounds what JSON.stringify writes for %s', (_, text) => {
    expect(reserialisedBytes(text)).toBeLessThanOrEqual(MAX_BYTES_PER_PARSED_CHARACTER * text.length)
  })

  it('bounds it for every single character, each alone in a string', () => {
    let worst = 0
    for (let code = 0; code <= 0xffff; code++) {
      const character = String.fromCharCode(code)
      if (code < 0x20 || character === '"' || character === '\\') continue
      worst = Math.max(worst, reserialisedBytes(`"${character}"`) - 2)
    }
    expect(worst).toBe(MAX_BYTES_PER_PARSED_CHARACTER)
  })
})

describe('argumentRefusal', () => {
  const limits = (maxArgumentBytes: number) => ({ ...defaultPtcLimits, maxArgumentBytes })

  it('measures arguments as serialised, also when they grow from the text they came from', () => {
    const text = '{"a":[1e20,1e20,1e20]}'
    const bytes = reserialisedBytes(text)
    expect(bytes).toBeGreaterThan(text.length)
    const args = JSON.parse(text)
    expect(argumentRefusal(args, limits(bytes - 1), text.length)).toBe(subCallRefusalText.tooLarge(bytes - 1))
    expect(argumentRefusal(args, limits(bytes), text.length)).toBeUndefined()
    expect(argumentRefusal(args, limits(bytes - 1))).toBe(subCallRefusalText.tooLarge(bytes - 1))
  })

  it('refuses depth, shape and lossy numbers before size', () => {
    expect(argumentRefusal([1] as never, limits(1), 3)).toBe(subCallRefusalText.notAnObject())
    expect(argumentRefusal(JSON.parse('{"a":1e400}'), limits(1), 11)).toBe(subCallRefusalText.notLossless())
  })
})
