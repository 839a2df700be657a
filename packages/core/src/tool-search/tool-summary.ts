/** The longest summary, in characters; a longer first sentence is cut at a word and ends with `…`. */
export const MAX_SUMMARY_CHARS = 100

/** Anything with a description: a definition, or the schema the model is shown. */
export interface Described {
  readonly description: string
}

const summaries = new WeakMap<Described, string>()

/** The first sentence of the description on one line, once per (frozen) object. */
export function toolSummary(tool: Described): string {
  let summary = summaries.get(tool)
  if (summary === undefined) {
    summary = summarize(tool.description)
    summaries.set(tool, summary)
  }
  return summary
}

export function summarize(description: string): string {
  const flat = description
    .slice(0, 4 * MAX_SUMMARY_CHARS)
    .replace(/\s+/g, ' ')
    .trim()
  const end = flat.search(/[.!?](\s|$)/)
  const sentence = end === -1 ? flat : flat.slice(0, end + 1)
  if (sentence.length <= MAX_SUMMARY_CHARS) return sentence
  const cut = sentence.slice(0, MAX_SUMMARY_CHARS - 1)
  const space = cut.lastIndexOf(' ')
  return `${space > MAX_SUMMARY_CHARS / 2 ? cut.slice(0, space) : cut}…`
}
