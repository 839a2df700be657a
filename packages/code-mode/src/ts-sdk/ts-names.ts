import { stringLiteral, textLines } from '../code-text.js'

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Words a member name may use unquoted but an alias or binding name may not. */
const reserved = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with let static yield await implements interface package private protected public'.split(
    ' ',
  ),
)

/** A property or method key: bare when it is an identifier, quoted on one line otherwise (`"get-sum"`). */
export function memberKey(name: string): string {
  return identifier.test(name) ? name : stringLiteral(name)
}

/** A PascalCase type name built from any hint (`read_file` → `ReadFile`), never empty, never reserved. */
export function typeName(hint: string): string {
  const words = hint.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0)
  const joined = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('')
  const name = joined === '' ? 'Shape' : /^[0-9]/.test(joined) ? `T${joined}` : joined
  return reserved.has(name) ? `${name}Type` : name
}

/**
 * A `/** … *\/` comment ending in a newline. Every line of a longer text sits behind a ` * ` gutter, so no
 * description can put a line in the SDK that reads as a declaration (`  admin_export(): Promise<void>`).
 */
export function docComment(text: string, indent: string): string {
  const lines = textLines(text.replaceAll('*/', '*\\/'))
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`
  return `${indent}/**\n${lines.map((line) => `${indent} *${line === '' ? '' : ` ${line}`}\n`).join('')}${indent} */\n`
}
