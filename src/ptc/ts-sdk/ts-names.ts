const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Words a member name may use unquoted but an alias or binding name may not. */
const reserved = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with let static yield await implements interface package private protected public'.split(
    ' ',
  ),
)

/** A property or method key: bare when it is an identifier, JSON-quoted otherwise (`"get-sum"`). */
export function memberKey(name: string): string {
  return identifier.test(name) ? name : JSON.stringify(name)
}

/** A PascalCase type name built from any hint (`read_file` → `ReadFile`), never empty, never reserved. */
export function typeName(hint: string): string {
  const words = hint.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0)
  const joined = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('')
  const name = joined === '' ? 'Shape' : /^[0-9]/.test(joined) ? `T${joined}` : joined
  return reserved.has(name) ? `${name}Type` : name
}

/**
 * A `/** … *\/` comment ending in a newline. A long text keeps its own lines unprefixed: a ` * ` gutter
 * would cost tokens on every line and tell the model nothing.
 */
export function docComment(text: string, indent: string): string {
  const lines = text
    .trim()
    .replaceAll('*/', '*\\/')
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`
  return `${indent}/**\n${lines.join('\n')}\n${indent}*/\n`
}
