import { stringLiteral, textLines } from '@qilin-tools/code-mode/internal/code-text.js'

/** Words Python reserves; a binding or field named after one cannot be written as an identifier. */
const keywords = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
)

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/

/** True when `name` can stand as a Python identifier (ASCII only, to keep the SDK unambiguous). */
export function isPythonIdentifier(name: string): boolean {
  return identifier.test(name) && !keywords.has(name)
}

/** True when `tools.<name>` reaches the binding: dunder names belong to the object itself. */
export function isToolAttribute(name: string): boolean {
  return isPythonIdentifier(name) && !(name.startsWith('__') && name.endsWith('__'))
}

/** How a program reaches a tool: `tools.read_file` or `tools["get-sum"]`. */
export function pythonToolAccess(name: string): string {
  return isToolAttribute(name) ? `tools.${name}` : `tools[${pythonString(name)}]`
}

/** A PascalCase class name from any hint (`read_file` → `ReadFile`), never empty, never a keyword. */
export function pythonClassName(hint: string): string {
  const words = hint.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0)
  const joined = words.map((word) => (word[0] ?? '').toUpperCase() + word.slice(1)).join('')
  if (joined === '') return 'Shape'
  return /^[0-9]/.test(joined) ? `T${joined}` : joined
}

/** A Python string literal on one line: JSON escapes are valid Python escapes. */
export function pythonString(text: string): string {
  return stringLiteral(text)
}

/**
 * Text safe inside a `"""…"""` docstring at `indent`. Further lines are indented to the docstring too, so no
 * line of a description can sit where a declaration would (`    async def admin_export(): ...`).
 */
export function docstring(text: string, indent: string): string {
  const lines = textLines(text.replaceAll('\\', '\\\\').replaceAll('"""', '\\"\\"\\"'))
  const body = lines.map((line, index) => (index === 0 || line === '' ? line : `${indent}${line}`)).join('\n')
  const closing = body.endsWith('"') ? ' """' : '"""'
  return `${indent}"""${body}${closing}\n`
}

/** A description as comment text: one line, or several `# ` lines when it has line breaks. */
export function commentLines(text: string): string[] {
  return textLines(text).filter((line) => line !== '')
}

/**
 * The attribute each tool answers to: its own name when that is an identifier, else a spelling with `_` for
 * every other character (`get-sum` → `get_sum`) when no other tool claims it, else none (subscript only).
 * The SDK and the runner read the same map, so both spellings the SDK shows are the ones that work.
 */
export function toolAttributes(names: readonly string[]): ReadonlyMap<string, string | undefined> {
  const taken = new Set(names.filter(isToolAttribute))
  const spellings = new Map<string, string>()
  const counts = new Map<string, number>()
  for (const name of names) {
    if (isToolAttribute(name)) continue
    let spelling = name.replace(/[^A-Za-z0-9_]/g, '_')
    if (/^[0-9]/.test(spelling)) spelling = `_${spelling}`
    if (!isPythonIdentifier(spelling)) spelling = `${spelling}_`
    spellings.set(name, spelling)
    counts.set(spelling, (counts.get(spelling) ?? 0) + 1)
  }
  return new Map(
    names.map((name) => {
      if (isToolAttribute(name)) return [name, name]
      const spelling = spellings.get(name)
      const free = spelling !== undefined && isToolAttribute(spelling) && !taken.has(spelling)
      return [name, free && counts.get(spelling) === 1 ? spelling : undefined]
    }),
  )
}
