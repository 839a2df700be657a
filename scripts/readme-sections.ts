/**
 * The heading sections of a README and the part of each that a translation must follow.
 *
 * What is hashed, per heading section (the lines from one heading to the next, the heading line itself left out):
 * the prose, with fenced code blocks, inline code spans and table delimiter rows removed, then every whitespace
 * character deleted. Deleting rather than collapsing whitespace means reflowing a paragraph never counts as a change
 * in either language (Chinese has no spaces between words, so a moved line break would otherwise add or drop one),
 * and neither does re-padding a table; what it misses, a word split or joined by a space, never needs the
 * translation touched. Code and identifiers are the same on both sides, so changing only them needs no translation.
 */
import { createHash } from 'node:crypto'

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

const fenceOpening = /^ {0,3}(`{3,}|~{3,})/

/** A fence closes on a line of the same character, at least as long as the one that opened it. */
function closesFence(fence: string, line: string): boolean {
  return new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)
}

/** ATX headings only (`## Title`); the READMEs use no underlined (setext) headings. */
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
      if (closesFence(fence, line)) fence = undefined
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
      if (closesFence(fence, line)) fence = undefined
      continue
    }
    const opening = fenceOpening.exec(line)
    if (opening) fence = opening[1]!
    else if (!tableDelimiterRow.test(line)) kept.push(line)
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
  const seen = new Set<string>()
  const parents: string[] = []
  return english.map((section) => {
    if (section.level === 0) {
      seen.add(preambleId)
      return preambleId
    }
    parents.length = section.level - 1
    const parent = parents.findLast((id) => id !== undefined) ?? ''
    const base = `${parent}/${slug(section.heading)}`
    let id = base
    for (let count = 1; seen.has(id); count += 1) id = `${base}-${count}`
    seen.add(id)
    parents.push(id)
    return id
  })
}
