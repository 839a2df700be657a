/** The pairing record (README.i18n.yaml): its entries, its problems, and the one YAML shape it is written in. */
export const englishFile = 'README.md'
export const chineseFile = 'README.zh.md'
export const recordFile = 'README.i18n.yaml'

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
    const id = jsonString(key[1]!)
    const chineseHeading = jsonString(heading[1]!)
    if (id === undefined) return fail(index, `section id ${key[1]} is not a valid JSON string`)
    if (chineseHeading === undefined) return fail(index + 1, `heading ${heading[1]} is not a valid JSON string`)
    if (entries.some((entry) => entry.id === id)) return fail(index, `section id ${key[1]} appears twice`)
    entries.push({
      id,
      chineseHeading,
      englishHash: englishHash[1]!,
      chineseHash: chineseHash[1]!,
    })
    index += 4
  }
  return { ok: true, entries }
}

function jsonString(quoted: string): string | undefined {
  try {
    return JSON.parse(quoted) as string
  } catch {
    return undefined
  }
}
