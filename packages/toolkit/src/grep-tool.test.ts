import { execFileSync } from 'node:child_process'
import { closeSync, ftruncateSync, openSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { worstEventLoopLag } from 'qilin-tools/internal/json-schema/__fixtures__/event-loop-lag.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runTool, toolRefusal } from './__fixtures__/run-tool.js'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'
import { grepTool } from './grep-tool.js'
import { openWorkspace } from './workspace.js'

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

  it('answers the issue 14 pattern and nested repeats at once, with the event loop free, and refuses lookaround', async () => {
    writeFileSync(join(workspace.root, 'attack.txt'), `${'a'.repeat(40)}\n`.repeat(200))
    const outcomes: unknown[] = []
    const lag = await worstEventLoopLag(async () => {
      outcomes.push(await workspace.refusal('grep', { pattern: '(a{1,30}){1,30}b', path: 'attack.txt' }))
      outcomes.push(await workspace.run('grep', { pattern: '(a{1,20}){1,20}b', path: 'attack.txt' }))
      outcomes.push(await workspace.run('grep', { pattern: '(a{1,20}){1,20}', path: 'attack.txt', maxResults: 1 }))
    })
    expect(outcomes).toEqual([
      expect.stringMatching(/cannot run on grep's linear-time engine \(the pattern compiles to 1802 instructions/),
      expect.objectContaining({ matches: [], filesSearched: 1 }),
      expect.objectContaining({ matches: [expect.objectContaining({ line: 1 })], truncated: true }),
    ])
    expect(lag).toBeLessThan(100)
    expect(await workspace.refusal('grep', { pattern: 'a(?=b)' })).toMatch(
      /^the regular expression "a\(\?=b\)" cannot run on grep's linear-time engine \(lookahead and lookbehind/,
    )
    expect(await workspace.refusal('grep', { pattern: '(a)\\1' })).toMatch(/backreferences are not supported/)
  })

  it('keeps the JavaScript escapes models write without the u flag', async () => {
    writeFileSync(join(workspace.root, 'q.txt'), 'say "x-y" {z}\n')
    expect(await workspace.run('grep', { pattern: '\\"x\\-y\\" {z}', path: 'q.txt' })).toMatchObject({
      matches: [{ line: 1 }],
    })
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

describe('grep on hostile files', () => {
  it('passes over a named pipe and a 1.5 GB file in a directory search, and refuses them when named', async () => {
    execFileSync('mkfifo', [join(workspace.root, 'pipe')])
    const descriptor = openSync(join(workspace.root, 'big.log'), 'w')
    ftruncateSync(descriptor, 1536 * 1024 * 1024)
    closeSync(descriptor)
    const started = performance.now()
    const searches = [1, 2, 3, 4].map(() => workspace.run('grep', { pattern: 'deep' }))
    expect(await readFile(join(workspace.root, 'b.md'), 'utf8')).toBe('todo lower\n')
    for (const value of await Promise.all(searches)) {
      expect(value).toMatchObject({ matches: [{ path: 'sub/d.ts', line: 1 }], filesSearched: 3 })
    }
    expect(await workspace.refusal('grep', { pattern: 'x', path: 'pipe' })).toMatch(
      /^"pipe" is a named pipe \(FIFO\), not a regular file/,
    )
    expect(await workspace.refusal('grep', { pattern: 'x', path: 'big.log' })).toBe(
      '"big.log" is 1610612736 bytes, over the 5242880 byte limit; grep cannot search files this large',
    )
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it('takes its per-file limit as an option, and names it in its description', async () => {
    const tool = grepTool(openWorkspace(workspace.root), { maxFileBytes: 12 })
    expect(tool.description).toContain('files over 12 bytes are skipped')
    expect(await runTool(tool, { pattern: 'TODO' })).toMatchObject({ filesSearched: 2 })
    expect(await toolRefusal(tool, { pattern: 'TODO', path: 'a.ts' })).toMatch(
      /^"a.ts" is 29 bytes, over the 12 byte limit/,
    )
  })

  it('keeps context lines across the maxResults stop, as when it split whole files', async () => {
    writeFileSync(join(workspace.root, 'ctx.txt'), 'm1\nx\nm2\nm3\ny\nz\n')
    expect(await workspace.run('grep', { pattern: '^m', path: 'ctx.txt', context: 2, maxResults: 2 })).toEqual({
      matches: [
        { path: 'ctx.txt', line: 1, text: 'm1', before: [], after: ['x', 'm2'] },
        { path: 'ctx.txt', line: 3, text: 'm2', before: ['m1', 'x'], after: ['m3', 'y'] },
      ],
      filesSearched: 1,
      truncated: true,
    })
  })
})
