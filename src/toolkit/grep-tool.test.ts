import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace({
    'a.ts': 'one\n// TODO first\nthree\nfour\n',
    'b.md': 'todo lower\n',
    'c.bin': 'TODO\u0000',
    'sub/d.ts': 'TODO deep\n',
  })
})
afterEach(() => workspace.dispose())

describe('grep', () => {
  it('finds matching lines with context', async () => {
    expect(await workspace.run('grep', { pattern: 'TODO', glob: '*.ts', context: 1 })).toEqual({
      matches: [
        { path: 'a.ts', line: 2, text: '// TODO first', before: ['one'], after: ['three'] },
        { path: 'sub/d.ts', line: 1, text: 'TODO deep', before: [], after: [] },
      ],
      filesSearched: 2,
      truncated: false,
    })
  })

  it('ignores case on request, skips binary files and caps results', async () => {
    const value = (await workspace.run('grep', { pattern: 'todo', ignoreCase: true })) as {
      matches: { path: string }[]
    }
    expect(value.matches.map((match) => match.path)).toEqual(['a.ts', 'b.md', 'sub/d.ts'])
    expect(await workspace.run('grep', { pattern: 'o', maxResults: 2 })).toMatchObject({ truncated: true })
  })

  it('searches one file and explains a bad expression', async () => {
    expect(await workspace.run('grep', { pattern: 'f', path: 'a.ts' })).toMatchObject({
      matches: [{ line: 2 }, { line: 4 }],
    })
    expect(await workspace.refusal('grep', { pattern: '(' })).toMatch(/^invalid regular expression "\(":/)
  })

  it('refuses a pattern that could backtrack catastrophically, before reading any file', async () => {
    expect(await workspace.refusal('grep', { pattern: '(a+)+$' })).toMatch(
      /^the regular expression "\(a\+\)\+\$" could backtrack for minutes/,
    )
  })

  it('shows the model grep-style lines', () => {
    const tool = workspace.toolkit.tools.find((candidate) => candidate.name === 'grep')
    const value = {
      matches: [{ path: 'a.ts', line: 2, text: 'x', before: ['w'], after: ['y'] }],
      filesSearched: 1,
      truncated: false,
    }
    expect(tool?.output?.render?.({ pattern: 'x' }, value)).toEqual([
      { type: 'text', text: 'a.ts-1-w\na.ts:2:x\na.ts-3-y' },
    ])
  })
})
