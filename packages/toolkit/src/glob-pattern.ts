import { compileLinearPattern, type LinearPattern } from 'qilin-tools/internal/json-schema/linear-regex.js'
import { failure } from './workspace.js'

/**
 * Compiles a glob over `/`-separated relative paths: `**` spans directories, `*` and `?` stay within one,
 * `{a,b}` alternates, `[abc]` / `[!abc]` are classes. A pattern without `/` matches at any depth (`*.ts`).
 * The glob comes from a model: it runs on the linear-time engine, so `**a**a**a…b` cannot backtrack.
 */
export function globMatcher(pattern: string): LinearPattern {
  const anchored = pattern.includes('/') ? pattern.replace(/^\.\//, '') : `**/${pattern}`
  const compiled = compileLinearPattern(`^${translate(anchored)}$`, { legacySyntax: true })
  if (compiled.ok) return compiled.pattern
  throw failure(`invalid glob ${JSON.stringify(pattern)}: ${compiled.reason}`)
}

function translate(pattern: string): string {
  let source = ''
  let braces = 0
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index] as string
    if (character === '*' && pattern[index + 1] === '*') {
      const slashAfter = pattern[index + 2] === '/'
      source += slashAfter ? '(?:[^/]*/)*' : '.*'
      index += slashAfter ? 2 : 1
    } else if (character === '*') source += '[^/]*'
    else if (character === '?') source += '[^/]'
    else if (character === '{') {
      braces++
      source += '(?:'
    } else if (character === '}' && braces > 0) {
      braces--
      source += ')'
    } else if (character === ',' && braces > 0) source += '|'
    else if (character === '[') {
      const end = pattern.indexOf(']', index + 2)
      if (end === -1) source += '\\['
      else {
        const body = pattern.slice(index + 1, end)
        source += `[${body.startsWith('!') ? `^${escapeClass(body.slice(1))}` : escapeClass(body)}]`
        index = end
      }
    } else source += escapeLiteral(character)
  }
  return source + ')'.repeat(braces)
}

function escapeLiteral(character: string): string {
  return /[.+^$()|\\\]]/.test(character) ? `\\${character}` : character
}

function escapeClass(body: string): string {
  return body.replace(/[\\\]^]/g, '\\$&')
}
