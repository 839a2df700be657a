/**
 * Keeps README.md and README.zh.md in step, section by section.
 *
 *   node --import tsx scripts/readme-pairing.ts            check; exit 1 naming every unpaired change
 *   node --import tsx scripts/readme-pairing.ts --write    re-record, after both sides say the same thing
 *
 * `--root <dir>` reads and writes the three files in another folder (the tests use it).
 * What is hashed: see scripts/readme-sections.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  chineseFile,
  englishFile,
  type PairingEntry,
  type PairingProblem,
  parseRecord,
  recordFile,
  renderRecord,
} from './readme-pairing-record.js'
import { parseSections, preambleId, proseHash, type ReadmeSection, sectionIds } from './readme-sections.js'

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

/** The command: returns the exit code and the lines to print, so the tests can run it in process too. */
export function runReadmePairing(argv: readonly string[]): { exitCode: number; output: string[] } {
  const write = argv.includes('--write')
  const rootAt = argv.indexOf('--root')
  const rootValue = rootAt === -1 ? -1 : rootAt + 1
  const unknown = argv.filter((argument, at) => argument !== '--write' && at !== rootAt && at !== rootValue)
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
