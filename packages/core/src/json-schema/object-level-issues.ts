import { quote } from './describe-value.js'
import type { JsonSchemaObject } from './node.js'
import { listKeys } from './object-shape.js'
import type { ValidationIssue } from './validation-result.js'
import { issuePrefix, issueWithMessage, MAX_ISSUES } from './validation-state.js'

/** Words an object-level failure from the failing object and its pointer; `head` 1 means `constantHead` applies. */
export type ObjectLevelIssues = (value: unknown, pointer: string, head: number) => ValidationIssue[]

type Factory = (
  messages: readonly string[],
  declared: ReadonlySet<string>,
  issue: typeof issueWithMessage,
  unexpected: (key: string) => string,
  hasOwn: typeof Object.hasOwn,
  isOwnProperty: typeof Object.prototype.hasOwnProperty,
) => ObjectLevelIssues

/** Per node, the texts of this many unexpected keys are kept (short keys only): models repeat their mistakes. */
const REMEMBERED_KEYS = 64
const REMEMBERED_KEY_LENGTH = 64

/** `unexpected property "<key>"<allowed>`, memoised per node so a repeated wrong key costs one lookup. */
function unexpectedPropertyText(allowed: string): (key: string) => string {
  let texts: Record<string, string> = Object.create(null)
  let count = 0
  return (key) => {
    let text = texts[key]
    if (text === undefined) {
      text = `unexpected property ${quote(key)}${allowed}`
      if (key.length <= REMEMBERED_KEY_LENGTH) {
        if (count >= REMEMBERED_KEYS) {
          texts = Object.create(null)
          count = 0
        }
        texts[key] = text
        count++
      }
    }
    return text
  }
}

/** Up to this many declared keys are tested by comparisons in the source; more by a set. */
const COMPARED_KEYS = 8

/**
 * Source that keeps up to `MAX_ISSUES` issues in locals and returns them as an array literal of the exact length:
 * a failure allocates no array it then has to grow. `add` returns early once the budget is spent.
 */
function issueSlots(): { declare: string; add: (issue: string) => string; collect: string } {
  const slots = Array.from({ length: MAX_ISSUES }, (_, index) => `issue${index}`)
  const stores = slots.map((slot, index) => `if (count === ${index}) ${slot} = next;`).join(' else ')
  const exact = slots.map((_, index) => `count === ${index + 1} ? [${slots.slice(0, index + 1).join(', ')}] : `)
  return {
    declare: `let count = 0, ${slots.join(', ')};`,
    add: (issue) =>
      `{ const next = ${issue}; ${stores} count++; if (count === ${MAX_ISSUES}) return [${slots.join(', ')}]; }`,
    collect: `return ${exact.slice(0, -1).join('')}[];`,
  }
}

/**
 * The unexpected keys, then the missing required keys, of an object whose present declared properties the
 * generated code already found valid: what the closure tree's fused object shape reports for it, in its order.
 *
 * Written as a function per schema node, like the checks themselves: the declared keys are constants in the
 * source, so the reads stay monomorphic however many schemas a process validates. It is built the first time
 * the node fails, so valid traffic never pays for it. Keys reach the source only through JSON.stringify.
 */
export function objectLevelIssues(node: JsonSchemaObject, constantHead: string): ObjectLevelIssues {
  const declared = Object.keys(node.properties ?? {})
  const required = node.required ?? []
  const messages: string[] = [constantHead, `; allowed properties: ${listKeys(declared)}`]
  const issues = issueSlots()
  const lines = [
    'return (data, pointer, head) => {',
    // issuePrefix(pointer), written in place: a call here measurably slowed every failure.
    `const prefix = head === 1 ? messages[0] : pointer === "" ? ${JSON.stringify(issuePrefix(''))} : "at " + pointer + ": ";`,
    issues.declare,
  ]
  if (node.additionalProperties === false) {
    const known =
      declared.length === 0
        ? 'false'
        : declared.length <= COMPARED_KEYS
          ? declared.map((key) => `key === ${JSON.stringify(key)}`).join(' || ')
          : 'declared.has(key)'
    lines.push(
      'for (const key in data) {',
      // hasOwnProperty, not Object.hasOwn: V8 answers it from the for…in cache without a lookup.
      `if (${known} || !isOwnProperty.call(data, key)) continue;`,
      issues.add('issue(pointer, "additionalProperties", prefix + unexpected(key))'),
      '}',
    )
  }
  for (const key of required) {
    const name = JSON.stringify(key)
    // As the generated check reads it: keys Object.prototype also answers need an own-key test.
    const own = Reflect.has(Object.prototype, key) ? ` && hasOwn(data, ${name})` : ''
    messages.push(`missing required property ${name}`)
    lines.push(
      `if (!(data[${name}] !== undefined${own})) {`,
      issues.add(`issue(pointer, "required", prefix + messages[${messages.length - 1}])`),
      '}',
    )
  }
  lines.push(issues.collect, '};')
  const factory = new Function(
    'messages',
    'declared',
    'issue',
    'unexpected',
    'hasOwn',
    'isOwnProperty',
    lines.join('\n'),
  ) as Factory
  return factory(
    messages,
    new Set(declared),
    issueWithMessage,
    unexpectedPropertyText(messages[1]!),
    Object.hasOwn,
    Object.prototype.hasOwnProperty,
  )
}
