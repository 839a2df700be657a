import type { KeywordDefinition } from './compile-context.js'
import { previewJson } from './describe-value.js'
import { formatCheckers } from './formats.js'
import { InstanceKind } from './instance-kind.js'
import { expectCount, expectString } from './keyword-values.js'
import { PATTERN_INPUT_LIMIT, patternRisk } from './pattern-risk.js'
import { SchemaCompileError } from './schema-compile-error.js'
import { type Check, report } from './validation-state.js'

/** Length in Unicode code points, as JSON Schema counts it (a surrogate pair is one character). */
export function codePointLength(text: string): number {
  let count = text.length
  for (let index = 0; index < text.length - 1; index++) {
    const unit = text.charCodeAt(index)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--
        index++
      }
    }
  }
  return count
}

function plural(count: number): string {
  return count === 1 ? 'character' : 'characters'
}

function compilePattern(
  source: unknown,
  context: Parameters<NonNullable<KeywordDefinition['compile']>>[2],
  schemaPath: string,
): Check | undefined {
  const text = expectString(source, 'pattern', schemaPath)
  let regex: RegExp
  try {
    regex = new RegExp(text, 'u')
  } catch (error) {
    throw new SchemaCompileError(
      'pattern',
      schemaPath,
      `is not a valid ECMAScript regular expression: ${(error as Error).message}`,
    )
  }
  const risk = patternRisk(text)
  if (risk !== undefined) {
    context.unsupported('pattern', schemaPath, `${previewJson(text)} may backtrack catastrophically: ${risk}`)
    return undefined
  }
  return (value, state) => {
    const subject = value as string
    if (subject.length <= PATTERN_INPUT_LIMIT && regex.test(subject)) return true
    if (state.silent === 0) {
      const detail =
        subject.length > PATTERN_INPUT_LIMIT
          ? `string of ${subject.length} characters is longer than the ${PATTERN_INPUT_LIMIT} checked against pattern ${previewJson(text)}`
          : `expected a string matching pattern ${previewJson(text)}, received ${previewJson(subject)}`
      report(state, 'pattern', detail)
    }
    return false
  }
}

export const stringKeywords = {
  minLength: {
    appliesTo: InstanceKind.string,
    compile(limitValue, _schema, _context, schemaPath): Check {
      const limit = expectCount(limitValue, 'minLength', schemaPath)
      return (value, state) => {
        const text = value as string
        if (text.length >= limit * 2 || (text.length >= limit && codePointLength(text) >= limit)) return true
        if (state.silent === 0) {
          const received = codePointLength(text)
          report(
            state,
            'minLength',
            `expected at least ${limit} ${plural(limit)}, received ${received} ${plural(received)}`,
          )
        }
        return false
      }
    },
  },
  maxLength: {
    appliesTo: InstanceKind.string,
    compile(limitValue, _schema, _context, schemaPath): Check {
      const limit = expectCount(limitValue, 'maxLength', schemaPath)
      return (value, state) => {
        const text = value as string
        if (text.length <= limit || codePointLength(text) <= limit) return true
        if (state.silent === 0) {
          const received = codePointLength(text)
          report(
            state,
            'maxLength',
            `expected at most ${limit} ${plural(limit)}, received ${received} ${plural(received)}`,
          )
        }
        return false
      }
    },
  },
  pattern: {
    appliesTo: InstanceKind.string,
    compile: (source, _schema, context, schemaPath) => compilePattern(source, context, schemaPath),
  },
  format: {
    appliesTo: InstanceKind.string,
    compile(nameValue, _schema, context, schemaPath): Check | undefined {
      const name = expectString(nameValue, 'format', schemaPath)
      const checker = Object.hasOwn(formatCheckers, name) ? formatCheckers[name] : undefined
      if (!context.options.assertFormats || checker === undefined) return undefined
      return (value, state) => {
        if (checker(value as string)) return true
        if (state.silent === 0) report(state, 'format', `expected a ${name} string, received ${previewJson(value)}`)
        return false
      }
    },
  },
} satisfies Record<string, KeywordDefinition>
