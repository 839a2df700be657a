import { stableHash } from './stable-hash.js'

/** A provider's rule for function names. */
export interface NameRule {
  /** What a valid name matches. */
  readonly valid: RegExp
  /** One character that may not appear; replaced by `_`. */
  readonly invalidCharacter: RegExp
  /** What the first character must match, if the provider restricts it. */
  readonly first?: RegExp
  readonly maxLength: number
}

/**
 * Renames tools to fit `rule`, reversibly: returns provider name -> our name for every tool.
 * Valid names are kept; others get invalid characters replaced, a prefix when the first character is
 * not allowed, and a short stable hash of the original when truncated or colliding.
 */
export function mapToolNames(names: readonly string[], rule: NameRule): Map<string, string> {
  const byProvider = new Map<string, string>()
  const valid = new Set(names.filter((name) => rule.valid.test(name)))
  for (const name of names) {
    let candidate = valid.has(name) ? name : repair(name, rule)
    const taken = (proposal: string) => byProvider.has(proposal) || (proposal !== name && valid.has(proposal))
    for (let attempt = 0; taken(candidate); attempt++) {
      candidate = withHash(candidate, attempt === 0 ? name : `${name}#${attempt}`, rule)
    }
    byProvider.set(candidate, name)
  }
  return byProvider
}

function repair(name: string, rule: NameRule): string {
  let repaired = [...name].map((character) => (rule.invalidCharacter.test(character) ? '_' : character)).join('')
  if (repaired === '' || (rule.first !== undefined && !rule.first.test(repaired.charAt(0)))) repaired = `_${repaired}`
  return repaired.length > rule.maxLength ? withHash(repaired, name, rule) : repaired
}

function withHash(candidate: string, original: string, rule: NameRule): string {
  const suffix = `_${stableHash(original)}`
  return `${candidate.slice(0, rule.maxLength - suffix.length)}${suffix}`
}
