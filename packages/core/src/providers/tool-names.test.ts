import { describe, expect, it } from 'vitest'
import { GEMINI_NAME_RULE } from './gemini/gemini-rules.js'
import { OPENAI_NAME_RULE } from './openai/openai-rules.js'
import { mapToolNames } from './tool-names.js'

describe('mapToolNames', () => {
  it('keeps valid names and repairs the others reversibly', () => {
    const map = mapToolNames(['read_file', 'git.status', 'say hi', 'API-get-user'], OPENAI_NAME_RULE)
    expect([...map]).toEqual([
      ['read_file', 'read_file'],
      ['git_status', 'git.status'],
      ['say_hi', 'say hi'],
      ['API-get-user', 'API-get-user'],
    ])
  })

  it('never lets a repaired name take a valid one, and separates collisions with a stable hash', () => {
    const map = mapToolNames(['a.b', 'a_b', 'a b'], OPENAI_NAME_RULE)
    expect([...map.values()]).toEqual(['a.b', 'a_b', 'a b'])
    expect(map.get('a_b')).toBe('a_b')
    const providerNames = [...map.keys()]
    expect(new Set(providerNames).size).toBe(3)
    expect(providerNames.every((name) => OPENAI_NAME_RULE.valid.test(name))).toBe(true)
    expect([...mapToolNames(['a.b', 'a_b', 'a b'], OPENAI_NAME_RULE).keys()]).toEqual(providerNames)
  })

  it('truncates long names to the limit with a hash, and fixes a first character Gemini refuses', () => {
    const long = 'x'.repeat(80)
    const [openai] = [...mapToolNames([long], OPENAI_NAME_RULE).keys()]
    expect(openai).toHaveLength(64)
    expect(openai?.startsWith('x'.repeat(50))).toBe(true)
    expect([...mapToolNames(['9lives', 'get-sum', 'ns:tool.v2'], GEMINI_NAME_RULE).keys()]).toEqual([
      '_9lives',
      'get-sum',
      'ns:tool.v2',
    ])
  })

  it('gives duplicated names distinct provider names', () => {
    const map = mapToolNames(['echo', 'echo', 'echo'], OPENAI_NAME_RULE)
    expect(map.size).toBe(3)
    expect([...map.values()]).toEqual(['echo', 'echo', 'echo'])
  })
})
