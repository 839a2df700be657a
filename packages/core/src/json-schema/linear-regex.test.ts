import { describe, expect, it } from 'vitest'
import { worstEventLoopLag } from './__fixtures__/event-loop-lag.js'
import { compileLinearPattern, type LinearPattern } from './linear-regex.js'

function linear(source: string, options: Parameters<typeof compileLinearPattern>[1] = {}): LinearPattern {
  const result = compileLinearPattern(source, options)
  if (!result.ok) throw new Error(`${source}: ${result.reason}`)
  return result.pattern
}

function randomLetters(length: number): string {
  let seed = 7
  let text = ''
  for (let index = 0; index < length; index++) {
    seed = (seed * 1103515245 + 12345) % 2147483648
    text += String.fromCharCode(97 + (seed % 26))
  }
  return text
}

/** Each pattern against inputs where ECMAScript (RegExp with `u`) and RE2 could disagree. */
const agreement: [source: string, inputs: string[]][] = [
  ['^\\s$', [' ', '\t', '\v', '\u00a0', '\u2028', '\ufeff', '\u3000', 'x', '\u200b']],
  ['^\\S$', [' ', '\v', 'x', '\u00a0', '😀']],
  ['^[\\s\\S]$', ['\n', 'x', '😀']],
  ['^[^\\s]$', [' ', 'x']],
  ['^.$', ['\n', '\r', '\u2028', '\u2029', 'x', '😀']],
  ['^[^]$', ['\n', 'x']],
  ['^[]$', ['', 'x']],
  ['^\\d+$', ['123', '١٢٣']],
  ['^\\w+$', ['abc_1', 'é']],
  ['\\bword\\b', ['a word here', 'swordfish']],
  ['a$', ['a', 'a\n', 'ba']],
  ['^\\u{1F600}$', ['😀']],
  ['^\\ud83d\\ude00$', ['😀']],
  ['^\\x41\\u0042\\cJ\\0$', ['AB\n\0']],
  ['^[\\b]$', ['\b', 'b']],
  ['^\\p{L}+$', ['héllo', '123']],
  ['^\\p{Letter}+$', ['héllo', '123']],
  ['^\\p{Script=Greek}+$', ['αβγ', 'abc']],
  ['^(?<year>\\d{4})-(\\d{2})$', ['2026-12', '26-12']],
  ['^a{2,3}?$', ['a', 'aa', 'aaaa']],
  ['^[a\\-z]$', ['-', 'b']],
  ['^[[]$', ['[']],
  ['^\\/\\.\\*$', ['/.*']],
  ['^[😀-😂]$', ['😁', 'a']],
  ['^(?:ab|cd)*$', ['abcdab', 'abc']],
]

describe('compileLinearPattern', () => {
  it.each(agreement)('%s means what it means in ECMAScript', (source, inputs) => {
    const native = new RegExp(source, 'u')
    const pattern = linear(source)
    for (const input of inputs) expect([input, pattern.test(input)]).toEqual([input, native.test(input)])
  })

  it('ignores case on request and reads legacy (no u flag) escapes as literals', () => {
    expect(linear('todo', { ignoreCase: true }).test('a TODO')).toBe(true)
    expect(linear('todo').test('a TODO')).toBe(false)
    expect(linear('\\-\\"a{', { legacySyntax: true }).test('x-"a{')).toBe(true)
    expect(compileLinearPattern('\\-', {})).toMatchObject({ ok: false, kind: 'invalid' })
  })

  it.each([
    ['(?=a)b', 'lookahead and lookbehind'],
    ['(?!a)b', 'lookahead and lookbehind'],
    ['(?<=a)b', 'lookahead and lookbehind'],
    ['(?<!a)b', 'lookahead and lookbehind'],
    ['(a)\\1', 'backreferences'],
    ['(?<x>a)\\k<x>', 'backreferences'],
    ['a{1001}', 'invalid repeat count'],
    ['\\p{Script_Extensions=Greek}', 'Unicode property'],
    ['(a{1,30}){1,30}b', 'compiles to 1802 instructions, over the 1000'],
    ['a'.repeat(5000), 'is 5000 characters long, over the 4096'],
  ])('refuses %s, which it cannot express, saying why', (source, why) => {
    const result = compileLinearPattern(source)
    expect(result).toMatchObject({ ok: false, kind: 'unsupported' })
    expect(result.ok ? '' : result.reason).toContain(why)
  })

  it('reports an invalid ECMAScript pattern as invalid', () => {
    expect(compileLinearPattern('([a-z]')).toMatchObject({ ok: false, kind: 'invalid' })
  })

  it('runs nested and wide repeats in linear time, with the event loop free for other work', async () => {
    const attacks: [string, string, boolean][] = [
      ['(a{1,20}){1,20}b', 'a'.repeat(40), false],
      ['(a{1,20}){1,20}b', 'a'.repeat(16384), false],
      ['[a-z]{990}#', randomLetters(16384), false],
      ['[a-z]{990}[a-z]#', 'ab'.repeat(8192), false],
      ['^(a+)+$', `${'a'.repeat(4096)}!`, false],
      ['(a|aa)*c', 'a'.repeat(4096), false],
      ['^(\\d*)*\\d*\\d*x$', '1'.repeat(4096), false],
      ['(.*a){20}b', 'a'.repeat(4096), false],
    ]
    for (const [source, input, expected] of attacks) {
      let matched: boolean | undefined
      const lag = await worstEventLoopLag(() => {
        matched = linear(source).test(input)
      })
      expect([source, matched]).toEqual([source, expected])
      expect(lag, source).toBeLessThan(100)
    }
  })
})
