import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import { parseJsonArguments } from '../json-schema/parse-json-arguments.js'
import { failureMessages } from './failure-messages.js'
import { copyFrozenJson, freezeParsed } from './frozen-json.js'

/** Why arguments could not be read as JSON; anything else `readArguments` returns is the frozen value. */
export class Unreadable {
  constructor(readonly detail: string | undefined) {}
  message(name: string): string {
    return this.detail === undefined
      ? failureMessages.notJson(name)
      : failureMessages.invalidArguments(name, this.detail)
  }
}

/** The validator's defaults, passed as one shared object rather than a fresh `{}` per call. */
const defaultLimits = Object.freeze({})

/** What blank argument text reads as; validation then decides whether the tool accepts no arguments. */
export const emptyArguments: JsonObject = Object.freeze({})

/** The parser's default byte cap; JSON whitespace is one byte a character, so longer blank text is refused as big. */
const maxBlankLength = 1024 * 1024
const blank = /^[\t\n\r ]*$/

/** JSON text starts with `{` or another non-blank character; only text that does not is tested further. */
function isBlank(text: string): boolean {
  return (text.length === 0 || text.charCodeAt(0) <= 0x20) && text.length <= maxBlankLength && blank.test(text)
}

/**
 * A call's arguments as one frozen JSON value: the model's text parsed under the parser's limits, or a value copied
 * losslessly; blank text (as some providers send for a tool without parameters) is `emptyArguments`. `isValue` says
 * a string is a value of its own (a sub-call's), not JSON text. The one way the pipeline reads arguments, for
 * scheduling as for running.
 */
export function readArguments(raw: unknown, isValue = false): JsonValue | Unreadable {
  if (typeof raw === 'string' && !isValue) {
    if (isBlank(raw)) return emptyArguments
    const parsed = parseJsonArguments(raw, defaultLimits)
    return parsed.ok ? freezeParsed(parsed.value as JsonValue) : new Unreadable(parsed.message)
  }
  const copy = copyFrozenJson(raw)
  return copy === undefined ? new Unreadable(undefined) : copy
}
