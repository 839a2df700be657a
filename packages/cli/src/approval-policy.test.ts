import { describe, expect, it } from 'vitest'
import { approvalFor } from './approval-policy.js'

describe('approvalFor', () => {
  const defaults = { bash: 'ask' } as const

  it.each([
    [{}, 'bash', 'ask'],
    [{}, 'read_file', 'allow'],
    [{ bash: 'allow' }, 'bash', 'allow'],
    [{ '*': 'deny' }, 'bash', 'deny'],
    [{ 'memory__*': 'ask' }, 'memory__create_entities', 'ask'],
    [{ 'memory__*': 'ask' }, 'other__memory__x', 'allow'],
    [{ write_file: 'deny', '*_file': 'ask' }, 'write_file', 'deny'],
    [{ '*_file': 'ask', write_file: 'deny' }, 'write_file', 'ask'],
    [{ 'a.b': 'deny' }, 'axb', 'allow'],
  ] as const)('%j decides %s as %s', (rules, name, expected) => {
    expect(approvalFor(name, rules, defaults)).toBe(expected)
  })
})
