import { commentLines, isPythonIdentifier, pythonClassName, pythonString } from './python-names.js'

/** One key of a TypedDict: its Python type text, whether it may be absent, and what the schema says of it. */
export interface PythonField {
  readonly name: string
  readonly type: string
  readonly optional: boolean
  readonly comment: string | undefined
}

/** Names the SDK declares itself or Python owns; classes never take them. */
const takenNames = [
  'ToolCallError',
  'Any',
  'Literal',
  'TypedDict',
  'NotRequired',
  'Required',
  'Never',
  'Unpack',
  'tools',
]

/**
 * The named types an SDK block declares, in first-use order (a class is declared after the classes it uses).
 * A shape that renders the same as an earlier one reuses that earlier name, so shared shapes appear once.
 */
export class PythonDeclarations {
  private readonly byKey = new Map<string, string>()
  private readonly used = new Set(takenNames)
  private readonly texts: string[] = []
  /** Every first hint each shape was asked for under, from an earlier pass over the same tools. */
  readonly census = new Map<string, Set<string>>()

  /**
   * @param earlier a previous pass over the same tools: a shape several places share is named after what
   *   their hints have in common (`read_file result` and `write_file result` share `Result`).
   */
  constructor(private readonly earlier?: PythonDeclarations) {}

  /** A TypedDict for `fields`, named from `hints` (first free one wins), or the name of an identical earlier one. */
  typedDict(hints: readonly string[], fields: readonly PythonField[]): string {
    const key = `dict:${JSON.stringify(fields)}`
    this.count(key, hints)
    const known = this.byKey.get(key)
    if (known !== undefined) return known
    const name = this.freeName([...this.sharedHint(key), ...hints])
    this.byKey.set(key, name)
    this.texts.push(this.renderTypedDict(name, fields))
    return name
  }

  /** `Name = <type>` for a long named shape (a `$defs` union), or the name of an identical earlier alias. */
  alias(hints: readonly string[], type: string): string {
    const key = `alias:${type}`
    this.count(key, hints)
    const known = this.byKey.get(key)
    if (known !== undefined) return known
    const name = this.freeName([...this.sharedHint(key), ...hints])
    this.byKey.set(key, name)
    this.texts.push(`${name} = ${type}\n`)
    return name
  }

  /** Every declaration, in order. */
  render(): string {
    return this.texts.join('')
  }

  private count(key: string, hints: readonly string[]): void {
    const seen = this.census.get(key) ?? new Set<string>()
    seen.add(hints[0] ?? '')
    this.census.set(key, seen)
  }

  /** The words every hint of a shared shape ends with, when the earlier pass saw it under several hints. */
  private sharedHint(key: string): string[] {
    const hints = [...(this.earlier?.census.get(key) ?? [])]
    if (hints.length < 2) return []
    const words = hints.map((hint) => hint.split(/[^A-Za-z0-9]+/).filter((word) => word !== ''))
    const common: string[] = []
    for (let index = 1; words.every((list) => list.length >= index); index++) {
      const word = words[0]?.[words[0].length - index]
      if (word === undefined || !words.every((list) => list[list.length - index] === word)) break
      common.unshift(word)
    }
    return common.length === 0 ? [] : [common.join(' ')]
  }

  private freeName(hints: readonly string[]): string {
    const candidates = hints.map(pythonClassName)
    const first = candidates.find((candidate) => !this.used.has(candidate))
    let name = first
    const base = candidates[candidates.length - 1] ?? 'Shape'
    for (let suffix = 2; name === undefined || this.used.has(name); suffix++) name = `${base}${suffix}`
    this.used.add(name)
    return name
  }

  private renderTypedDict(name: string, fields: readonly PythonField[]): string {
    const optionalCount = fields.filter((field) => field.optional).length
    const total = optionalCount <= fields.length - optionalCount
    const marked = (field: PythonField) =>
      field.optional === !total ? field.type : `${total ? 'NotRequired' : 'Required'}[${field.type}]`
    const head = total ? '' : ', total=False'
    if (fields.every((field) => isPythonIdentifier(field.name))) {
      const lines = fields.map((field) => withComment(`    ${field.name}: ${marked(field)}`, field.comment, '    '))
      return `class ${name}(TypedDict${head}):\n${lines.join('')}`
    }
    const entries = fields.map((field) =>
      withComment(`    ${pythonString(field.name)}: ${marked(field)},`, field.comment, '    '),
    )
    return `${name} = TypedDict(${pythonString(name)}, {\n${entries.join('')}}${head})\n`
  }
}

/** `line` ending in a `# comment`, or preceded by comment lines when the comment has several lines. */
export function withComment(line: string, comment: string | undefined, indent: string): string {
  if (comment === undefined) return `${line}\n`
  const lines = commentLines(comment)
  if (lines.length === 0) return `${line}\n`
  if (lines.length === 1) return `${line}  # ${lines[0]}\n`
  return `${lines.map((text) => `${indent}# ${text}\n`).join('')}${line}\n`
}
