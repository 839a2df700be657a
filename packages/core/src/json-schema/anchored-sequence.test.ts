import { describe, expect, it } from 'vitest'
import { anchoredSequence } from './anchored-sequence.js'

const alphabet = ['a', 'b', 'z', '0', '9', '-', '_', ' ', '\n', '\u00a0', 'é', '😀', '\u0000', '.', '$']

function samples(count: number): string[] {
  let seed = 11
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed
  }
  const result = ['']
  for (let index = 0; index < count; index++) {
    let text = ''
    const length = next() % 9
    for (let char = 0; char < length; char++) text += alphabet[next() % alphabet.length]
    result.push(text)
  }
  return result
}

const shapes = [
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^[^\\u0000]+$',
  '^[a-z0-9_-]{1,4}$',
  '^[a-z]+\\d+$',
  '^a?b$',
  '^.+$',
  '^\\S+$',
  '^\\w*$',
  '^[^a-z]{2,}z$',
  '^\\$\\.$',
  '^$',
  '^😀+$',
  '^[\\u{1F600}a]{0,3}$',
]

describe('anchoredSequence', () => {
  it.each(shapes)('%s agrees with RegExp on generated strings', (source) => {
    const sequence = anchoredSequence(source)
    expect(sequence).toBeDefined()
    const native = new RegExp(source, 'u')
    for (const text of samples(400)) expect([text, sequence!.test(text)]).toEqual([text, native.test(text)])
  })

  it.each(['a+b', '^a+a$', '^a*a?$', '^[a-z]*[0-9a]$', '^(ab)+$', '^a|b$', '^a+?b$', '^\\bx$', '^\\p{L}$', '^a\\$'])(
    'leaves %s, where one greedy pass could be wrong or the shape differs, to the engine',
    (source) => {
      expect(anchoredSequence(source)).toBeUndefined()
    },
  )
})
