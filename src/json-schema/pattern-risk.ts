/**
 * A compile-time screen for `pattern`s that make a backtracking engine (V8's irregexp) run for seconds or forever:
 * - a group repeated without bound that itself contains an unbounded repeat or an alternation: `(a+)+`, `(a|ab)*`
 *   (exponential backtracking, the classic "star height above 1" rule of safe-regex);
 * - two unbounded repeats with nothing mandatory between them: `\d*\d*x`, `.*.*` (polynomial, cubic and worse);
 * - backreferences (`\1`, `\k<name>`), which no linear bound covers.
 * It is deliberately conservative: some safe patterns (`^[a-z]+(\.[a-z]+)*$`) are refused too; rewriting them
 * without the quantified group (`^[a-z.]+$` plus a check in code) is the fix. What passes the screen is at most
 * quadratic, and `PATTERN_INPUT_LIMIT` caps the string length a pattern is ever run on.
 */
export const PATTERN_INPUT_LIMIT = 4096

interface Frame {
  hasUnbounded: boolean
  hasAlternation: boolean
  /** An unbounded repeat was seen and no mandatory atom has followed it yet. */
  openUnbounded: boolean
}

interface Atom {
  readonly isGroup: boolean
  readonly containsUnbounded: boolean
  readonly containsAlternation: boolean
  readonly zeroWidth: boolean
}

const ZERO_WIDTH_ESCAPES = new Set(['b', 'B'])

/** Returns why `source` is risky, or undefined when it passes the screen. */
export function patternRisk(source: string): string | undefined {
  const frames: Frame[] = [{ hasUnbounded: false, hasAlternation: false, openUnbounded: false }]
  let pending: Atom | undefined
  const frame = () => frames[frames.length - 1]!
  const settle = () => {
    if (pending !== undefined && !pending.zeroWidth) frame().openUnbounded = false
    pending = undefined
  }
  const quantify = (unbounded: boolean, optional: boolean): string | undefined => {
    const atom = pending
    pending = undefined
    if (atom === undefined) return undefined
    if (unbounded && atom.isGroup && (atom.containsUnbounded || atom.containsAlternation)) {
      return 'a repeated group contains another repeat or an alternation (exponential backtracking)'
    }
    if (unbounded) {
      if (frame().openUnbounded) return 'two unbounded repeats follow each other (polynomial backtracking)'
      frame().hasUnbounded = true
      frame().openUnbounded = true
    } else if (!optional) {
      frame().openUnbounded = false
    }
    return undefined
  }
  let index = 0
  while (index < source.length) {
    const char = source[index]!
    let risk: string | undefined
    if (char === '\\') {
      settle()
      const next = source[index + 1] ?? ''
      if (/[1-9]/.test(next) || next === 'k') return 'backreferences are not supported in patterns'
      const braced = (next === 'p' || next === 'P' || next === 'u') && source[index + 2] === '{'
      index = braced ? source.indexOf('}', index) + 1 || source.length : index + 2
      pending = {
        isGroup: false,
        containsUnbounded: false,
        containsAlternation: false,
        zeroWidth: ZERO_WIDTH_ESCAPES.has(next),
      }
      continue
    }
    if (char === '[') {
      settle()
      index++
      while (index < source.length && source[index] !== ']') index += source[index] === '\\' ? 2 : 1
      index++
      pending = { isGroup: false, containsUnbounded: false, containsAlternation: false, zeroWidth: false }
      continue
    }
    if (char === '(') {
      settle()
      frames.push({ hasUnbounded: false, hasAlternation: false, openUnbounded: frame().openUnbounded })
      const prefix = /^\?(?::|=|!|<=|<!|<[^>]*>)/.exec(source.slice(index + 1))
      if (prefix !== null) index += prefix[0].length
    } else if (char === ')' && frames.length > 1) {
      settle()
      const closed = frames.pop()!
      if (closed.hasUnbounded) frame().hasUnbounded = true
      frame().openUnbounded = closed.openUnbounded
      pending = {
        isGroup: true,
        containsUnbounded: closed.hasUnbounded,
        containsAlternation: closed.hasAlternation,
        zeroWidth: false,
      }
    } else if (char === '|') {
      settle()
      frame().hasAlternation = true
      frame().openUnbounded = false
    } else if (char === '*' || char === '+' || char === '?') {
      const lazy = source[index + 1] === '?'
      risk = quantify(char !== '?', char !== '+')
      if (lazy) index++
    } else if (char === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(index))) {
      const close = source.indexOf('}', index)
      const body = source.slice(index + 1, close)
      const [low, high] = body.split(',')
      risk = quantify(body.includes(',') && (high === undefined || high === ''), Number(low) === 0)
      index = close
    } else if (char === '^' || char === '$') {
      settle()
      pending = { isGroup: false, containsUnbounded: false, containsAlternation: false, zeroWidth: true }
    } else {
      settle()
      pending = { isGroup: false, containsUnbounded: false, containsAlternation: false, zeroWidth: false }
    }
    if (risk !== undefined) return risk
    index++
  }
  return undefined
}
