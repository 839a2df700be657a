import type { KeywordDefinition } from './compile-context.js'
import { InstanceKind } from './instance-kind.js'
import { boundDetail, detailText, multipleOfDetail } from './keyword-details.js'
import { expectNumber } from './keyword-values.js'
import { SchemaCompileError } from './schema-compile-error.js'
import { type Check, report } from './validation-state.js'

type Comparison = (value: number, limit: number) => boolean

function bound(keyword: string, passes: Comparison, wording: string): KeywordDefinition {
  return {
    appliesTo: InstanceKind.number,
    compile(limitValue, _schema, _context, schemaPath): Check {
      if (typeof limitValue === 'boolean') {
        throw new SchemaCompileError(keyword, schemaPath, 'the draft-04 boolean form is not supported; use a number')
      }
      const limit = expectNumber(limitValue, keyword, schemaPath)
      const detail = boundDetail(wording, limit)
      return (value, state) => {
        if (passes(value as number, limit)) return true
        if (state.silent === 0) report(state, keyword, detailText(detail, value))
        return false
      }
    },
  }
}

function decimalPlaces(value: number): number {
  const text = String(value)
  const exponentAt = text.indexOf('e')
  const mantissa = exponentAt === -1 ? text : text.slice(0, exponentAt)
  const exponent = exponentAt === -1 ? 0 : Number(text.slice(exponentAt + 1))
  const dotAt = mantissa.indexOf('.')
  return Math.max(0, (dotAt === -1 ? 0 : mantissa.length - dotAt - 1) - exponent)
}

/**
 * `value` is a multiple of `divisor` as the decimals are written, not as binary floats: 0.0075 is a multiple of
 * 0.0001 even though `0.0075 / 0.0001` is 74.99999999999999. An infinite quotient falls back to the exact `%`.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  const quotient = value / divisor
  if (Number.isInteger(quotient)) return true
  if (!Number.isFinite(quotient)) return value % divisor === 0
  const places = Math.max(decimalPlaces(value), decimalPlaces(divisor))
  if (places > 20) return false
  const scale = 10 ** places
  const scaledValue = Math.round(value * scale)
  const scaledDivisor = Math.round(divisor * scale)
  if (!Number.isSafeInteger(scaledValue) || !Number.isSafeInteger(scaledDivisor) || scaledDivisor === 0) return false
  return scaledValue % scaledDivisor === 0
}

export const numberKeywords = {
  minimum: bound('minimum', (value, limit) => value >= limit, '>='),
  maximum: bound('maximum', (value, limit) => value <= limit, '<='),
  exclusiveMinimum: bound('exclusiveMinimum', (value, limit) => value > limit, '>'),
  exclusiveMaximum: bound('exclusiveMaximum', (value, limit) => value < limit, '<'),
  multipleOf: {
    appliesTo: InstanceKind.number,
    compile(divisorValue, _schema, _context, schemaPath): Check {
      const divisor = expectNumber(divisorValue, 'multipleOf', schemaPath)
      if (divisor <= 0) throw new SchemaCompileError('multipleOf', schemaPath, 'must be greater than 0')
      const detail = multipleOfDetail(divisor)
      return (value, state) => {
        if (isMultipleOf(value as number, divisor)) return true
        if (state.silent === 0) report(state, 'multipleOf', detailText(detail, value))
        return false
      }
    },
  },
} satisfies Record<string, KeywordDefinition>
