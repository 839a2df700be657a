import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkPairing, recordPairing, runReadmePairing } from '../scripts/readme-pairing.js'
import { renderRecord } from '../scripts/readme-pairing-record.js'
import { comparableProse, parseSections, sectionIds } from '../scripts/readme-sections.js'
import { repositoryRoot } from './support/built-cli.js'

const english = readFileSync(join(repositoryRoot, 'README.md'), 'utf8')
const chinese = readFileSync(join(repositoryRoot, 'README.zh.md'), 'utf8')
const record = readFileSync(join(repositoryRoot, 'README.i18n.yaml'), 'utf8')
const http = '/qilin-tools/the-command-line/serving-over-http'

/** Replaces one exact passage, failing loudly if the README no longer holds it. */
function edit(text: string, from: string, to: string): string {
  expect(text).toContain(from)
  return text.replace(from, to)
}

function codes(problems: readonly { code: string; section: string }[]) {
  return problems.map((problem) => `${problem.code} ${problem.section}`)
}

describe('the committed READMEs', () => {
  it('are paired and unchanged since the last record', () => {
    expect(checkPairing(english, chinese, record)).toEqual([])
    expect(runReadmePairing(['--root', repositoryRoot])).toEqual({
      exitCode: 0,
      output: ['readme-pairing: README.md and README.zh.md agree'],
    })
  })

  it('have the same headings at the same levels, and the same code blocks', () => {
    const englishSections = parseSections(english)
    const chineseSections = parseSections(chinese)
    expect(chineseSections.map((section) => section.level)).toEqual(englishSections.map((section) => section.level))
    expect(englishSections.length).toBeGreaterThan(8)
    const fenced = (text: string) => text.match(/^```[\s\S]*?^```/gm)
    expect(fenced(chinese)).toEqual(fenced(english))
  })

  it('open with the language switch', () => {
    expect(english.split('\n')[0]).toBe('English | [简体中文](README.zh.md)')
    expect(chinese.split('\n')[0]).toBe('[English](README.md) | 简体中文')
  })
})

describe('checkPairing', () => {
  it('names the section whose English changed without the Chinese', () => {
    const changed = edit(english, 'requires a bearer token', 'requires a bearer token of 32 bytes')
    const problems = checkPairing(changed, chinese, record)
    expect(codes(problems)).toEqual([`english-changed ${http}`])
    expect(problems[0]!.message).toContain('Serving over HTTP')
    expect(problems[0]!.message).toContain('update README.zh.md')
  })

  it('names the section whose Chinese changed without the English', () => {
    const changed = edit(chinese, '并要求 bearer token', '并且必须带 bearer token')
    const problems = checkPairing(english, changed, record)
    expect(codes(problems)).toEqual([`chinese-changed ${http}`])
    expect(problems[0]!.message).toContain(http)
  })

  it('reports an edit on both sides as a stale record that needs --write', () => {
    const englishChanged = edit(english, 'requires a bearer token', 'requires a bearer token of 32 bytes')
    const chineseChanged = edit(chinese, '并要求 bearer token', '并要求 32 字节的 bearer token')
    const problems = checkPairing(englishChanged, chineseChanged, record)
    expect(codes(problems)).toEqual([`both-changed ${http}`])
    expect(problems[0]!.message).toContain('run --write')
    const recorded = recordPairing(englishChanged, chineseChanged)
    if (!recorded.ok) throw new Error(recorded.problems[0]!.message)
    expect(checkPairing(englishChanged, chineseChanged, renderRecord(recorded.entries))).toEqual([])
  })

  it('does not count changes to code blocks, inline code, reflowed lines or table padding', () => {
    let changed = edit(english, "name: 'weather',", "name: 'forecast',")
    changed = edit(changed, '`serve.maxSessions`', '`serve.sessionLimit`')
    changed = edit(
      changed,
      'requires a bearer token. At start it\nprints',
      'requires a\nbearer token. At start it prints',
    )
    changed = edit(changed, '| command      ', '| command')
    let chineseChanged = edit(chinese, '"timeoutMs": 30000', '"timeoutMs": 60000')
    chineseChanged = edit(chineseChanged, '用来防 DNS 重绑定；', '用来防 DNS\n重绑定；')
    expect(checkPairing(changed, chineseChanged, record)).toEqual([])
  })

  it('fails when the Chinese side lacks a section, and pairs the sections after it still', () => {
    const start = chinese.indexOf('### 通过 HTTP 提供服务')
    const end = chinese.indexOf('### 不可信输入')
    const withoutHttp = chinese.slice(0, start) + chinese.slice(end)
    const problems = checkPairing(english, withoutHttp, record)
    expect(codes(problems)).toEqual([`english-only ${http}`])
    expect(problems[0]!.message).toContain('通过 HTTP 提供服务')
  })

  it('fails for an English section the record does not know, and for its unpaired Chinese side', () => {
    const englishAdded = edit(english, '## Architecture\n', '## Upgrading\n\nRead the changelog.\n\n## Architecture\n')
    expect(codes(checkPairing(englishAdded, chinese, record))).toEqual(['not-recorded /qilin-tools/upgrading'])
    const chineseAdded = edit(chinese, '## 架构\n', '## 升级\n\n请先读变更日志。\n\n## 架构\n')
    expect(codes(checkPairing(englishAdded, chineseAdded, record))).toEqual([
      'chinese-only qilin-tools > 升级',
      'not-recorded /qilin-tools/upgrading',
    ])
  })

  it('fails when a Chinese heading was renamed without re-recording', () => {
    const renamed = edit(chinese, '### 不可信输入', '### 恶意输入')
    expect(codes(checkPairing(english, renamed, record))).toEqual([
      'chinese-only qilin-tools > 命令行 > 恶意输入',
      'english-only /qilin-tools/the-command-line/hostile-input',
    ])
  })

  it('fails when the Chinese sections come in another order', () => {
    const architecture = chinese.slice(chinese.indexOf('## 架构'), chinese.indexOf('## 性能测量'))
    const swapped = chinese.replace(architecture, '').replace('## 包里有什么', `${architecture}## 包里有什么`)
    expect(codes(checkPairing(english, swapped, record))).toEqual(['order-differs /qilin-tools/what-is-in-the-box'])
  })

  it('reports a record it cannot read with the line, instead of throwing', () => {
    const broken = record.replace(/^ {2}en: [0-9a-f]{12}$/m, '  en: not-a-hash')
    const problems = checkPairing(english, chinese, broken)
    expect(problems).toHaveLength(1)
    expect(problems[0]!.code).toBe('malformed-record')
    expect(problems[0]!.message).toMatch(/^README\.i18n\.yaml line \d+: expected " {2}en: <12 hex digits>"/)
  })

  it('reports a quoted id or heading that is not a JSON string, instead of throwing', () => {
    for (const broken of [record.replace('"/qilin-tools":', '"/qilin-\\q":'), record.replace('"架构"', '"\\u12"')]) {
      const problems = checkPairing(english, chinese, broken)
      expect(codes(problems)).toEqual([expect.stringMatching(/^malformed-record README\.i18n\.yaml:\d+$/)])
      expect(problems[0]!.message).toContain('not a valid JSON string')
    }
  })

  it('treats a # line inside a fenced block as code, not a heading', () => {
    const sections = parseSections('# Title\n\n```sh\n# not a heading\nls\n```\n\ntext `a` b\n')
    expect(sections.map((section) => section.heading)).toEqual(['Title'])
    expect(comparableProse(sections[0]!.body)).toBe('textb')
  })
})

describe('section ids', () => {
  const englishText =
    '# Guide\n\n## Setup\n\n### Options\n\nA.\n\n### Options\n\nB.\n\n#### Notes\n\nC.\n\n## Use\n\n### Options\n\nD.\n'
  const chineseText =
    '# 指南\n\n## 安装\n\n### 选项\n\n甲。\n\n### 选项\n\n乙。\n\n#### 备注\n\n丙。\n\n## 使用\n\n### 选项\n\n丁。\n'

  it('are slug paths, numbered where a heading repeats under the same parent', () => {
    expect(sectionIds(parseSections(englishText))).toEqual([
      '/guide',
      '/guide/setup',
      '/guide/setup/options',
      '/guide/setup/options-1',
      '/guide/setup/options-1/notes',
      '/guide/use',
      '/guide/use/options',
    ])
  })

  it('pair repeated Chinese headings in order, so an edit under the second one names it', () => {
    const recorded = recordPairing(englishText, chineseText)
    if (!recorded.ok) throw new Error(recorded.problems[0]!.message)
    const recordText = renderRecord(recorded.entries)
    expect(checkPairing(englishText, chineseText, recordText)).toEqual([])
    expect(codes(checkPairing(englishText, chineseText.replace('丙', '丁'), recordText))).toEqual([
      'chinese-changed /guide/setup/options-1/notes',
    ])
  })
})

describe('recordPairing', () => {
  it('refuses to record sides whose headings differ in number or level, naming where', () => {
    const result = recordPairing(english, chinese.replace('### 不可信输入', '## 不可信输入'))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problems[0]!.code).toBe('structure-differs')
    expect(result.problems[0]!.message).toContain('English "Hostile input", Chinese "不可信输入"')
  })
})

describe('scripts/readme-pairing.ts as a command', () => {
  let folder: string | undefined
  afterEach(() => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
    folder = undefined
  })

  const run = (...argv: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/readme-pairing.ts', ...argv], {
      cwd: repositoryRoot,
      encoding: 'utf8',
    })

  it('exits 1 naming the section after a one-sided edit, and 0 once both sides are re-recorded', () => {
    folder = mkdtempSync(join(tmpdir(), 'qilin-readme-pairing-'))
    writeFileSync(join(folder, 'README.md'), edit(english, 'requires a bearer token', 'requires a long bearer token'))
    writeFileSync(join(folder, 'README.zh.md'), chinese)
    writeFileSync(join(folder, 'README.i18n.yaml'), record)
    const failed = run('--root', folder)
    expect(failed.status).toBe(1)
    expect(failed.stderr).toContain(`the English prose of section "${http}" (Serving over HTTP) changed`)

    writeFileSync(join(folder, 'README.zh.md'), edit(chinese, '并要求 bearer token', '并要求一个长 bearer token'))
    const stale = run('--root', folder)
    expect(stale.status).toBe(1)
    expect(stale.stderr).toContain('run --write')
    expect(run('--root', folder, '--write').status).toBe(0)
    expect(run('--root', folder)).toMatchObject({ status: 0, stdout: expect.stringContaining('agree') })
  })

  it('exits 1 with one line when the record is missing, and 2 on an unknown flag', () => {
    folder = mkdtempSync(join(tmpdir(), 'qilin-readme-pairing-'))
    writeFileSync(join(folder, 'README.md'), english)
    writeFileSync(join(folder, 'README.zh.md'), chinese)
    const missing = run('--root', folder)
    expect(missing.status).toBe(1)
    expect(missing.stderr).toMatch(/^readme-pairing: cannot read README\.i18n\.yaml .*: run --write\n$/)
    expect(run('--check').status).toBe(2)
  })
})
