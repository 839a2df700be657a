/**
 * Keeps README.md and README.zh.md in step, section by section.
 *
 *   node --import tsx scripts/readme-pairing.ts            check; exit 1 naming every unpaired change
 *   node --import tsx scripts/readme-pairing.ts --write    re-record, after both sides say the same thing
 *
 * `--root <dir>` reads and writes the three files in another folder (the tests use it).
 *
 * What is hashed, per heading section (the lines from one heading to the next, the heading line itself left out):
 * the prose, with fenced code blocks, inline code spans and table delimiter rows removed, then every whitespace
 * character deleted. Deleting rather than collapsing whitespace means reflowing a paragraph never counts as a change
 * in either language (Chinese has no spaces between words, so a moved line break would otherwise add or drop one),
 * and neither does Biome re-padding a table; what it misses, a word split or joined by a space, never needs the
 * translation touched. Code and identifiers are the same on both sides, so changing only them needs no translation.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

export const englishFile = 'README.md'
export const chineseFile = 'README.zh.md'
export const recordFile = 'README.i18n.yaml'

/** The text before the first heading (the language switch line and anything else). */
export const preambleId = '/'

export interface ReadmeSection {
  /** 0 for the preamble, 1 to 6 for `#` to `######`. */
  readonly level: number
  readonly heading: string
  /** The heading texts from the top heading down to this one. */
  readonly headingPath: readonly string[]
  /** Every line under the heading up to the next heading, code included. */
  readonly body: string
}

export interface PairingEntry {
  readonly id: string
  readonly chineseHeading: string
  readonly englishHash: string
  readonly chineseHash: string
}

export type PairingProblemCode =
  | 'english-changed'
  | 'chinese-changed'
  | 'both-changed'
  | 'english-only'
  | 'chinese-only'
  | 'not-recorded'
  | 'stale-entry'
  | 'order-differs'
  | 'structure-differs'
  | 'malformed-record'

export interface PairingProblem {
  readonly code: PairingProblemCode
  /** The section's id, or the Chinese heading path for a Chinese section the record does not know. */
  readonly section: string
  readonly message: string
}

const fenceOpening = /^ {0,3}(`{3,}|~{3,})/
const atxHeading = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const tableDelimiterRow = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/
const codeSpan = /(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g

/** Splits markdown into heading sections; `#` inside a fenced code block is code, not a heading. */
export function parseSections(markdown: string): ReadmeSection[] {
  const sections: ReadmeSection[] = []
  const trail: string[] = []
  let current = { level: 0, heading: '', headingPath: [] as string[], lines: [] as string[] }
  let fence: string | undefined
  const close = () => sections.push({ ...current, body: current.lines.join('\n') })
  for (const line of markdown.split(/\r?\n/)) {
    if (fence !== undefined) {
      if (new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)) fence = undefined
      current.lines.push(line)
      continue
    }
    const opening = fenceOpening.exec(line)
    if (opening) {
      fence = opening[1]!
      current.lines.push(line)
      continue
    }
    const heading = atxHeading.exec(line)
    if (!heading) {
      current.lines.push(line)
      continue
    }
    close()
    const level = heading[1]!.length
    const text = (heading[2] ?? '').trim()
    trail.length = Math.min(trail.length, level - 1)
    while (trail.length < level - 1) trail.push('')
    trail.push(text)
    current = { level, heading: text, headingPath: [...trail], lines: [] }
  }
  close()
  if (sections[0]!.body.trim() === '' && sections.length > 1) sections.shift()
  return sections
}

/** The prose of a section as hashed: see the file comment. */
export function comparableProse(body: string): string {
  const kept: string[] = []
  let fence: string | undefined
  for (const line of body.split('\n')) {
    if (fence !== undefined) {
      if (new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)) fence = undefined
      continue
    }
    const opening = fenceOpening.exec(line)
    if (opening) fence = opening[1]!
    else if (!tableDelimiterRow.test(line) || !line.includes('-')) kept.push(line)
  }
  return kept
    .join('\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(codeSpan, ''))
    .join('')
    .replace(/\s+/gu, '')
}

/** The first 12 hex digits of the SHA-256 of a section's comparable prose. */
export function proseHash(body: string): string {
  return createHash('sha256').update(comparableProse(body), 'utf8').digest('hex').slice(0, 12)
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-')
}

/** A stable id per English section: its slug path (`/qilin-tools/the-command-line/serving-over-http`). */
export function sectionIds(english: readonly ReadmeSection[]): string[] {
  const seen = new Map<string, number>()
  const trail: string[] = []
  return english.map((section) => {
    if (section.level === 0) return preambleId
    trail.length = section.level - 1
    trail.push(slug(section.heading))
    const base = `/${trail.filter((part) => part !== '').join('/')}`
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    return count === 0 ? base : `${base}-${count}`
  })
}

/** Pairs the sections by position; refused unless both sides have the same headings at the same levels. */
export function recordPairing(
  englishMarkdown: string,
  chineseMarkdown: string,
): { ok: true; entries: PairingEntry[] } | { ok: false; problems: PairingProblem[] } {
  const english = parseSections(englishMarkdown)
  const chinese = parseSections(chineseMarkdown)
  const shape = (sections: readonly ReadmeSection[]) => sections.map((section) => section.level).join(',')
  if (shape(english) !== shape(chinese)) {
    const index = english.findIndex((section, at) => chinese[at]?.level !== section.level)
    const at = index === -1 ? english.length : index
    const message =
      `${englishFile} has ${english.length} sections and ${chineseFile} ${chinese.length}; they first differ at ` +
      `section ${at + 1} (English "${english[at]?.heading ?? '(none)'}", Chinese "${chinese[at]?.heading ?? '(none)'}"). ` +
      'Give both files the same headings at the same levels, in the same order, before recording.'
    return { ok: false, problems: [{ code: 'structure-differs', section: english[at]?.heading ?? '', message }] }
  }
  const ids = sectionIds(english)
  const entries = english.map((section, index) => ({
    id: ids[index]!,
    chineseHeading: chinese[index]!.heading,
    englishHash: proseHash(section.body),
    chineseHash: proseHash(chinese[index]!.body),
  }))
  return { ok: true, entries }
}

/** Compares both READMEs with the record; an empty list means every section is paired and unchanged. */
export function checkPairing(englishMarkdown: string, chineseMarkdown: string, recordText: string): PairingProblem[] {
  const parsed = parseRecord(recordText)
  if (!parsed.ok) return [parsed.problem]
  const record = new Map(parsed.entries.map((entry) => [entry.id, entry]))
  const english = parseSections(englishMarkdown)
  const englishIds = sectionIds(english)
  const englishById = new Map(english.map((section, index) => [englishIds[index]!, section]))
  const problems: PairingProblem[] = []

  // A Chinese section is the one the record names under the same parent, so a renamed or moved one is unpaired.
  const chinese = parseSections(chineseMarkdown)
  const chineseById = new Map<string, ReadmeSection>()
  const chineseOrder: string[] = []
  const resolvedTrail: (string | undefined)[] = []
  for (const section of chinese) {
    if (section.level === 0) {
      chineseById.set(preambleId, section)
      chineseOrder.push(preambleId)
      continue
    }
    resolvedTrail.length = section.level - 1
    const parent = resolvedTrail.findLast((id) => id !== undefined) ?? ''
    const parentKnown = resolvedTrail.every((id) => id !== undefined)
    const match = parentKnown
      ? parsed.entries.find(
          (entry) =>
            entry.id !== preambleId &&
            entry.chineseHeading === section.heading &&
            parentOf(entry.id) === parent &&
            !chineseById.has(entry.id) &&
            depthOf(entry.id) === depthOf(parent) + 1,
        )
      : undefined
    resolvedTrail.push(match?.id)
    if (match) {
      chineseById.set(match.id, section)
      chineseOrder.push(match.id)
      continue
    }
    const path = section.headingPath.filter((part) => part !== '').join(' > ')
    problems.push({
      code: 'chinese-only',
      section: path,
      message:
        `${chineseFile} section "${path}" is paired with no English section: the record has no entry with this ` +
        'Chinese heading under this parent. Add or rename the English section to match, then run --write.',
    })
  }

  for (const [index, id] of englishIds.entries()) {
    const section = english[index]!
    const entry = record.get(id)
    const chineseSection = chineseById.get(id)
    const name = id === preambleId ? 'the text before the first heading' : `"${id}" (${section.heading})`
    if (!entry) {
      problems.push({
        code: 'not-recorded',
        section: id,
        message: `${englishFile} section ${name} has no entry in ${recordFile}: write its Chinese side in ${chineseFile}, then run --write.`,
      })
      continue
    }
    if (!chineseSection) {
      problems.push({
        code: 'english-only',
        section: id,
        message: `${englishFile} section ${name} has no Chinese section (the record expects the heading "${entry.chineseHeading}").`,
      })
      continue
    }
    const englishChanged = proseHash(section.body) !== entry.englishHash
    const chineseChanged = proseHash(chineseSection.body) !== entry.chineseHash
    if (englishChanged && chineseChanged) {
      problems.push({
        code: 'both-changed',
        section: id,
        message: `section ${name} changed on both sides: the record is stale. Check the Chinese says what the English says, then run --write.`,
      })
    } else if (englishChanged) {
      problems.push({
        code: 'english-changed',
        section: id,
        message: `the English prose of section ${name} changed but the Chinese did not: update ${chineseFile}, then run --write.`,
      })
    } else if (chineseChanged) {
      problems.push({
        code: 'chinese-changed',
        section: id,
        message: `the Chinese prose of section ${name} changed but the English did not: update ${englishFile} (or undo the edit), then run --write.`,
      })
    }
  }

  for (const entry of parsed.entries) {
    if (englishById.has(entry.id) || chineseById.has(entry.id)) continue
    problems.push({
      code: 'stale-entry',
      section: entry.id,
      message: `${recordFile} entry "${entry.id}" matches no section on either side: run --write.`,
    })
  }

  const paired = new Set(englishIds.filter((id) => chineseById.has(id)))
  const englishSequence = englishIds.filter((id) => paired.has(id))
  const chineseSequence = chineseOrder.filter((id) => paired.has(id))
  const firstDifference = englishSequence.findIndex((id, index) => chineseSequence[index] !== id)
  if (firstDifference !== -1) {
    problems.push({
      code: 'order-differs',
      section: englishSequence[firstDifference]!,
      message: `${chineseFile} puts its sections in a different order: "${englishSequence[firstDifference]}" comes at position ${firstDifference + 1} in English but not in Chinese.`,
    })
  }
  return problems
}

function parentOf(id: string): string {
  return id.slice(0, id.lastIndexOf('/'))
}

function depthOf(id: string): number {
  return id === '' ? 0 : id.split('/').length - 1
}

const recordHeader = `# The pairing record of ${englishFile} and ${chineseFile}, written by scripts/readme-pairing.ts.
# One entry per heading section, keyed by the English heading's slug path ("/" is the text before the first
# heading), with the Chinese heading and the first 12 hex digits of the SHA-256 of each side's prose. Hashed:
# the lines under the heading, without fenced code blocks, inline code or table delimiter rows, with every
# whitespace character deleted (so reflowing a paragraph does not count; changing only code does not count).
# After changing one side, bring the other along, then:
#   node --import tsx scripts/readme-pairing.ts --write
`

/** The record as YAML: ids and headings as JSON strings (valid YAML scalars), hashes bare. */
export function renderRecord(entries: readonly PairingEntry[]): string {
  const blocks = entries.map(
    (entry) =>
      `${JSON.stringify(entry.id)}:\n  zh-heading: ${JSON.stringify(entry.chineseHeading)}\n` +
      `  en: ${entry.englishHash}\n  zh: ${entry.chineseHash}\n`,
  )
  return recordHeader + blocks.join('')
}

/** Reads exactly the shape `renderRecord` writes; anything else is reported with its line number. */
export function parseRecord(
  text: string,
): { ok: true; entries: PairingEntry[] } | { ok: false; problem: PairingProblem } {
  const entries: PairingEntry[] = []
  const lines = text.split(/\r?\n/)
  const fail = (index: number, why: string) => ({
    ok: false as const,
    problem: {
      code: 'malformed-record' as const,
      section: `${recordFile}:${index + 1}`,
      message: `${recordFile} line ${index + 1}: ${why}. Run --write to rewrite it.`,
    },
  })
  let index = 0
  while (index < lines.length) {
    const line = lines[index]!
    if (line.trim() === '' || line.startsWith('#')) {
      index += 1
      continue
    }
    const key = /^("(?:[^"\\]|\\.)*"):$/.exec(line)
    if (!key) return fail(index, 'expected a quoted section id followed by ":"')
    const fields = lines.slice(index + 1, index + 4)
    const heading = /^ {2}zh-heading: ("(?:[^"\\]|\\.)*")$/.exec(fields[0] ?? '')
    const englishHash = /^ {2}en: ([0-9a-f]{12})$/.exec(fields[1] ?? '')
    const chineseHash = /^ {2}zh: ([0-9a-f]{12})$/.exec(fields[2] ?? '')
    if (!heading) return fail(index + 1, 'expected "  zh-heading: <quoted heading>"')
    if (!englishHash) return fail(index + 2, 'expected "  en: <12 hex digits>"')
    if (!chineseHash) return fail(index + 3, 'expected "  zh: <12 hex digits>"')
    const id = JSON.parse(key[1]!) as string
    if (entries.some((entry) => entry.id === id)) return fail(index, `section id ${key[1]} appears twice`)
    entries.push({
      id,
      chineseHeading: JSON.parse(heading[1]!) as string,
      englishHash: englishHash[1]!,
      chineseHash: chineseHash[1]!,
    })
    index += 4
  }
  return { ok: true, entries }
}

/** The command: returns the exit code and the lines to print, so the tests can run it in process too. */
export function runReadmePairing(argv: readonly string[]): { exitCode: number; output: string[] } {
  const write = argv.includes('--write')
  const rootAt = argv.indexOf('--root')
  const unknown = argv.filter((argument, at) => argument !== '--write' && at !== rootAt && at !== rootAt + 1)
  if (unknown.length > 0 || (rootAt !== -1 && argv[rootAt + 1] === undefined)) {
    return { exitCode: 2, output: ['usage: node --import tsx scripts/readme-pairing.ts [--write] [--root <dir>]'] }
  }
  const root = resolve(rootAt === -1 ? process.cwd() : argv[rootAt + 1]!)
  const read = (name: string) => {
    try {
      return readFileSync(join(root, name), 'utf8')
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error))
    }
  }
  const englishText = read(englishFile)
  const chineseText = read(chineseFile)
  for (const [name, text] of [
    [englishFile, englishText],
    [chineseFile, chineseText],
  ] as const) {
    if (text instanceof Error) return { exitCode: 1, output: [`readme-pairing: cannot read ${name}: ${text.message}`] }
  }
  const english = englishText as string
  const chinese = chineseText as string
  if (write) {
    const recorded = recordPairing(english, chinese)
    if (!recorded.ok) return { exitCode: 1, output: recorded.problems.map((problem) => problem.message) }
    writeFileSync(join(root, recordFile), renderRecord(recorded.entries))
    return { exitCode: 0, output: [`readme-pairing: recorded ${recorded.entries.length} sections in ${recordFile}`] }
  }
  const recordText = read(recordFile)
  if (recordText instanceof Error) {
    return { exitCode: 1, output: [`readme-pairing: cannot read ${recordFile} (${recordText.message}): run --write`] }
  }
  const problems = checkPairing(english, chinese, recordText)
  if (problems.length === 0) return { exitCode: 0, output: [`readme-pairing: ${englishFile} and ${chineseFile} agree`] }
  return { exitCode: 1, output: problems.map((problem) => `readme-pairing: ${problem.message}`) }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { exitCode, output } = runReadmePairing(process.argv.slice(2))
  for (const line of output) (exitCode === 0 ? process.stdout : process.stderr).write(`${line}\n`)
  process.exitCode = exitCode
}
