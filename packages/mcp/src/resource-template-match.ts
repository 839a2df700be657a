import { compileLinearPattern, type LinearPattern } from 'qilin-tools/internal/json-schema/linear-regex.js'

/** The longest resource URI the proxy reads, routes or subscribes to. */
export const MAX_URI_LENGTH = 4096
/** The longest URI template kept from a server's listing. */
export const MAX_URI_TEMPLATE_LENGTH = 1024

/** What each RFC 6570 operator may expand to, as a regular expression over the expanded URI. */
const expansions: Readonly<Record<string, string>> = {
  '': '[^/?#]*',
  '+': '[^?#]*',
  '#': '(?:#.*)?',
  '.': '(?:\\.[^/?#]*)*',
  '/': '(?:/[^/?#]*)*',
  ';': '(?:;[^/?#]*)*',
  '?': '(?:\\?[^#]*)?',
  '&': '(?:&[^#]*)?',
}

function escapeLiteral(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
}

/**
 * A URI template as a pattern that matches every URI it can expand to, for routing a read to the server that
 * listed the template. Matching runs on the linear engine (a server writes the template); `undefined` when the
 * template is too long or not a template.
 */
export function templatePattern(template: string): LinearPattern | undefined {
  if (template.length > MAX_URI_TEMPLATE_LENGTH) return undefined
  let source = '^'
  let rest = template
  while (rest.length > 0) {
    const open = rest.indexOf('{')
    if (open === -1) {
      source += escapeLiteral(rest)
      break
    }
    const close = rest.indexOf('}', open)
    if (close === -1) return undefined
    source += escapeLiteral(rest.slice(0, open))
    const expression = rest.slice(open + 1, close)
    const operator = /^[+#./;?&]/.test(expression) ? (expression[0] as string) : ''
    source += expansions[operator]
    rest = rest.slice(close + 1)
  }
  const compiled = compileLinearPattern(`${source}$`)
  return compiled.ok ? compiled.pattern : undefined
}
