import { describe, expect, it } from 'vitest'
import { globMatcher } from './glob-pattern.js'

const cases: [pattern: string, path: string, matches: boolean][] = [
  ['*.ts', 'index.ts', true],
  ['*.ts', 'src/deep/index.ts', true],
  ['*.ts', 'index.tsx', false],
  ['src/*.ts', 'src/index.ts', true],
  ['src/*.ts', 'src/deep/index.ts', false],
  ['src/**/*.ts', 'src/index.ts', true],
  ['src/**/*.ts', 'src/a/b/index.ts', true],
  ['**/*.md', 'README.md', true],
  ['**', 'a/b/c', true],
  ['*.{ts,js}', 'a/b.js', true],
  ['*.{ts,js}', 'a/b.json', false],
  ['file?.txt', 'file1.txt', true],
  ['file?.txt', 'file10.txt', false],
  ['[ab].txt', 'a.txt', true],
  ['[!ab].txt', 'a.txt', false],
  ['[!ab].txt', 'c.txt', true],
  ['./docs/*.md', 'docs/x.md', true],
  ['a+b.txt', 'a+b.txt', true],
  ['a.b', 'axb', false],
  ['(x)|y', '(x)|y', true],
  ['a}b{c', 'a}bc', true],
  ['**a**a**a**a**a**a**a**a**b', `${'a'.repeat(60)}`, false],
  ['[a-]x', '-x', true],
]

describe('globMatcher', () => {
  it.each(cases)('%s against %s is %s', (pattern, path, matches) => {
    expect(globMatcher(pattern).test(path)).toBe(matches)
  })
})
