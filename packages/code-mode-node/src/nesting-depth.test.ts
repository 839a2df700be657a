import { describe, expect, it } from 'vitest'
import { findExcessNesting } from './nesting-depth.js'

const limit = 256

/** Each shape nested `depth` levels: what the scan must count. */
const shapes: Readonly<Record<string, (depth: number) => string>> = {
  braces: (depth) => `${'{'.repeat(depth)}${'}'.repeat(depth)}`,
  parentheses: (depth) => `x = ${'('.repeat(depth)}1${')'.repeat(depth)}`,
  brackets: (depth) => `x = ${'['.repeat(depth)}${']'.repeat(depth)}`,
  generics: (depth) => `type T = ${'A<'.repeat(depth)}B${'>'.repeat(depth)}`,
  'spaced generics': (depth) => `type T = ${'A < '.repeat(depth)}B${' >'.repeat(depth)}`,
  'generics over lines': (depth) => `type T = ${'Map<string,\n'.repeat(depth)}B${'>'.repeat(depth)}`,
  'generic function types': (depth) => `type T = ${'A<() => '.repeat(depth - 1)}A<B${'>'.repeat(depth)}`,
  templates: (depth) => `x = ${'`${'.repeat(depth)}1${'}`'.repeat(depth)}`,
  'mixed brackets': (depth) => {
    const opened = Array.from({ length: depth }, (_, level) => '({['[level % 3]).join('')
    const closers: Record<string, string> = { '(': ')', '{': '}', '[': ']' }
    return `x = ${opened}${[...opened]
      .reverse()
      .map((char) => closers[char])
      .join('')}`
  },
}

describe('findExcessNesting', () => {
  it.each(Object.entries(shapes))('%s: 256 levels pass, 257 are refused at the opener', (_name, shape) => {
    expect(findExcessNesting(shape(limit), limit)).toBeUndefined()
    const deeper = shape(limit + 2)
    const offset = findExcessNesting(deeper, limit)
    expect(offset).toBeDefined()
    expect(['{', '(', '[', '<', '$']).toContain(deeper[offset ?? 0])
  })

  it('counts siblings once: many shallow groups in a row are not deep', () => {
    expect(findExcessNesting('f({ a: [1] });\n'.repeat(10_000), limit)).toBeUndefined()
    expect(findExcessNesting('type T = Map<string, Set<number>>\n'.repeat(5_000), limit)).toBeUndefined()
  })

  it.each([
    ['single-quoted strings', `x = '${'('.repeat(1_000)}'`],
    ['double-quoted strings', `x = "${'{'.repeat(1_000)}\\"${'['.repeat(1_000)}"`],
    ['template text', `x = \`${'('.repeat(1_000)}\``],
    ['line comments', `// ${'{'.repeat(1_000)}\nx = 1`],
    ['block comments', `/* ${'['.repeat(1_000)}\n${'<'.repeat(1_000)} */ x = 1`],
    ['regular expressions', `x = /${'\\('.repeat(1_000)}[${'('.repeat(1_000)}/]/g.test(s)`],
    ['regular expressions after a keyword', `return /[${'{'.repeat(1_000)}]/`],
    ['comparisons joined by &&', `if (${'a < b && '.repeat(1_000)}c) {}`],
    ['comparisons on lines of their own', 'let x = 0\nx = a < b\n'.repeat(1_000)],
    ['comparisons in a loop', 'for (let i = 0; i < n; i++) total += i < 3 ? 1 : 2\n'.repeat(1_000)],
    ['shifts', `x = ${'a << '.repeat(1_000)}1`],
  ])('does not count what is inside %s', (_name, code) => {
    expect(findExcessNesting(code, limit)).toBeUndefined()
  })

  it('counts what a template substitution holds, braces included', () => {
    expect(findExcessNesting(`x = \`a\${ ${'{'.repeat(300)} }\``, limit)).toBeDefined()
    expect(findExcessNesting(`x = \`a\${ { b: 1 } }c\${ [d] }\`; ${'('.repeat(256)}`, limit)).toBeUndefined()
  })

  it('divides after a value, so a division cannot hide the brackets that follow it', () => {
    expect(findExcessNesting(`x = (a) / ${'('.repeat(300)}1${')'.repeat(300)}`, limit)).toBeDefined()
    expect(findExcessNesting(`x = a / ${'['.repeat(300)}1${']'.repeat(300)} / 2`, limit)).toBeDefined()
  })

  it('a guessed regular expression that does not end on its line is read again as code', () => {
    expect(findExcessNesting(`x = {} / ${'('.repeat(300)}1${')'.repeat(300)}`, limit)).toBeDefined()
  })

  it('takes time linear in the program on the shapes that would make a naive scan quadratic', () => {
    const hostile = [
      '}/['.repeat(66_000),
      '} /'.repeat(66_000),
      `'${'\\'.repeat(199_998)}`,
      '`${'.repeat(66_000),
      '<'.repeat(200_000),
      '/*'.repeat(100_000),
    ]
    for (const code of hostile) {
      const start = performance.now()
      findExcessNesting(code, limit)
      expect(performance.now() - start).toBeLessThan(500)
    }
  })
})
