import { codePointLength } from './code-point-length.js'
import type { KeywordDefinition } from './compile-context.js'
import { previewJson } from './describe-value.js'
import { formatCheckers } from './formats.js'
import { InstanceKind } from './instance-kind.js'
import { detailText, formatDetail, lengthDetail, patternDetail } from './keyword-details.js'
import { expectCount, expectString } from './keyword-values.js'
import { compileLinearPattern } from './linear-regex.js'
import { PATTERN_INPUT_LIMIT } from './pattern-risk.js'
import { SchemaCompileError } from './schema-compile-error.js'
import { type Check, report } from './validation-state.js'

function compilePattern(
  source: unknown,
  context: Parameters<NonNullable<KeywordDefinition['compile']>>[2],
  schemaPath: string,
): Check | undefined {
  const text = expectString(source, 'pattern', schemaPath)
  const compiled = compileLinearPattern(text)
  if (!compiled.ok && compiled.kind === 'invalid') {
    throw new SchemaCompileError(
      'pattern',
      schemaPath,
      `is not a valid ECMAScript regular expression: ${compiled.reason}`,
    )
  }
  if (!compiled.ok) {
    context.unsupported('pattern', schemaPath, `${previewJson(text)} is not checked here: ${compiled.reason}`)
    return undefined
  }
  const regex = compiled.pattern
  const detail = patternDetail(text)
  return (value, state) => {
    const subject = value as string
    if (subject.length <= PATTERN_INPUT_LIMIT && regex.test(subject)) return true
    if (state.silent === 0) report(state, 'pattern', detailText(detail, subject))
    return false
  }
}

export const stringKeywords = {
  minLength: {
    appliesTo: InstanceKind.string,
    compile(limitValue, _schema, _context, schemaPath): Check {
      const limit = expectCount(limitValue, 'minLength', schemaPath)
      const detail = lengthDetail('at least', limit)
      return (value, state) => {
        const text = value as string
        if (text.length >= limit * 2 || (text.length >= limit && codePointLength(text) >= limit)) return true
        if (state.silent === 0) report(state, 'minLength', detailText(detail, text))
        return false
      }
    },
  },
  maxLength: {
    appliesTo: InstanceKind.string,
    compile(limitValue, _schema, _context, schemaPath): Check {
      const limit = expectCount(limitValue, 'maxLength', schemaPath)
      const detail = lengthDetail('at most', limit)
      return (value, state) => {
        const text = value as string
        if (text.length <= limit || codePointLength(text) <= limit) return true
        if (state.silent === 0) report(state, 'maxLength', detailText(detail, text))
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
      const detail = formatDetail(name)
      return (value, state) => {
        if (checker(value as string)) return true
        if (state.silent === 0) report(state, 'format', detailText(detail, value))
        return false
      }
    },
  },
} satisfies Record<string, KeywordDefinition>
