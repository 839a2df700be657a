/** At most this many characters of one text are read for terms; the rest of a huge description is ignored. */
export const MAX_TERM_SOURCE_CHARS = 8192
/** At most this many terms are taken from one text. */
export const MAX_TERMS = 512

/** Words that say nothing about which tool is meant. */
const stopWords = new Set(
  (
    'a an the of to in on for with and or my me i is it its this that these those from by at as be can could ' +
    'you your all some any please want need would like how what which do does into onto about using use via ' +
    'there their them we our us so if then than just also will should get'
  ).split(' '),
)

/** Plural endings, folded first; longest first. */
const plurals: readonly (readonly [string, string])[] = [
  ['sses', 'ss'],
  ['ies', 'y'],
  ['es', ''],
  ['s', ''],
]

/** Verb and noun endings, folded after plurals so `relations` and `relation` meet `relate`. */
const endings: readonly string[] = ['ing', 'ion', 'ed']

function strip(word: string, suffix: string, replacement: string): string | undefined {
  return word.endsWith(suffix) && word.length - suffix.length >= 3
    ? word.slice(0, word.length - suffix.length) + replacement
    : undefined
}

/** A crude stemmer: enough for tool vocabulary, and applied alike to tools and queries, so both sides agree. */
export function stem(word: string): string {
  if (word.length <= 3) return word
  let base = word
  for (const [suffix, replacement] of plurals) {
    const stripped = strip(base, suffix, replacement)
    if (stripped !== undefined) {
      base = stripped
      break
    }
  }
  for (const suffix of endings) {
    const stripped = strip(base, suffix, '')
    if (stripped !== undefined) {
      base = undouble(stripped)
      break
    }
  }
  return base.endsWith('e') && base.length > 3 ? base.slice(0, -1) : base
}

/** `logg` (from `logging`) and `stopp` (from `stopped`) meet `log` and `stop`. */
function undouble(base: string): string {
  const last = base[base.length - 1]
  return base.length > 3 && last === base[base.length - 2] && last !== 's' && last !== 'l' ? base.slice(0, -1) : base
}

const wordPattern = /[A-Za-z0-9]+/g
const camelBoundary = /([a-z0-9])([A-Z])|([A-Z]+)([A-Z][a-z])/g

/**
 * The search terms of `text`: words split at punctuation, `snake_case`, `kebab-case` and `camelCase`, lowercased,
 * stop words dropped, stemmed. Reads at most `MAX_TERM_SOURCE_CHARS` and returns at most `MAX_TERMS`; no
 * character of the text is ever used as a pattern.
 */
export function searchTerms(text: string): string[] {
  const source = text.length > MAX_TERM_SOURCE_CHARS ? text.slice(0, MAX_TERM_SOURCE_CHARS) : text
  const spaced = source.replace(camelBoundary, (_match, a, b, c, d) => (a === undefined ? `${c} ${d}` : `${a} ${b}`))
  const terms: string[] = []
  for (const match of spaced.matchAll(wordPattern)) {
    const word = match[0].toLowerCase()
    if (stopWords.has(word)) continue
    terms.push(stem(word))
    if (terms.length >= MAX_TERMS) break
  }
  return terms
}
