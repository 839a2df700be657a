import { codePointLength } from './code-point-length.js'
import { describeAfter, previewJson } from './describe-value.js'
import type { JsonSchemaObject } from './node.js'
import { PATTERN_INPUT_LIMIT } from './pattern-risk.js'
import { maskName, schemaTypeMask } from './type-mask.js'

/**
 * The "expected …, received …" text of one failed keyword, built from constant fragments computed once per schema.
 * The closure tree and the generated code's failure path share these, so both word a failure the same way.
 */
export interface Detail {
  /** Constant text the detail starts with. */
  readonly prefix: string
  /** `start` (text that already ends with `prefix`) followed by the part that depends on the value. */
  readonly append: (start: string, value: unknown) => string
}

export function detailText(detail: Detail, value: unknown): string {
  return detail.append(detail.prefix, value)
}

const ENUM_LISTED_VALUES = 12

export function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, ENUM_LISTED_VALUES).map(previewJson).join(', ')
  return values.length > ENUM_LISTED_VALUES ? `${shown}, … (${values.length} values)` : shown
}

function appendNumber(start: string, value: unknown): string {
  return start + String(value)
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`
}

export function typeDetail(expected: string): Detail {
  return { prefix: `expected ${expected}, received `, append: describeAfter }
}

export function constDetail(expected: unknown): Detail {
  return { prefix: `expected ${previewJson(expected)}, received `, append: describeAfter }
}

export function enumDetail(values: readonly unknown[]): Detail {
  return { prefix: `expected one of ${listValues(values)}; received `, append: describeAfter }
}

export function boundDetail(wording: string, limit: number): Detail {
  return { prefix: `expected a number ${wording} ${limit}, received `, append: appendNumber }
}

export function multipleOfDetail(divisor: number): Detail {
  return { prefix: `expected a multiple of ${divisor}, received `, append: appendNumber }
}

export function lengthDetail(wording: string, limit: number): Detail {
  return {
    prefix: `expected ${wording} ${limit} ${plural(limit, 'character')}, received `,
    append(start, value) {
      const received = codePointLength(value as string)
      return `${start}${received} ${plural(received, 'character')}`
    },
  }
}

export function patternDetail(source: string): Detail {
  const quoted = previewJson(source)
  const tooLong = ` characters is longer than the ${PATTERN_INPUT_LIMIT} checked against pattern ${quoted}`
  const matching = `expected a string matching pattern ${quoted}, received `
  return {
    prefix: '',
    append(start, value) {
      const text = value as string
      return text.length > PATTERN_INPUT_LIMIT
        ? `${start}string of ${text.length}${tooLong}`
        : start + matching + previewJson(text)
    },
  }
}

export function formatDetail(name: string): Detail {
  return { prefix: `expected a ${name} string, received `, append: (start, value) => start + previewJson(value) }
}

export function itemCountDetail(wording: string, limit: number): Detail {
  return {
    prefix: `expected ${wording} ${limit} ${plural(limit, 'item')}, received `,
    append: (start, value) => start + String((value as unknown[]).length),
  }
}

/**
 * Keywords whose failure is always exactly one issue made from the failing value alone, by the keyword that
 * failed. The generated code's failure path words these itself instead of asking the closure tree.
 */
export const singleIssueDetails: Partial<Record<string, (schema: JsonSchemaObject) => Detail>> = {
  type: (schema) => typeDetail(maskName(schemaTypeMask(schema))),
  const: (schema) => constDetail(schema.const),
  enum: (schema) => enumDetail(schema.enum as readonly unknown[]),
  minimum: (schema) => boundDetail('>=', schema.minimum as number),
  maximum: (schema) => boundDetail('<=', schema.maximum as number),
  exclusiveMinimum: (schema) => boundDetail('>', schema.exclusiveMinimum as number),
  exclusiveMaximum: (schema) => boundDetail('<', schema.exclusiveMaximum as number),
  multipleOf: (schema) => multipleOfDetail(schema.multipleOf as number),
  minLength: (schema) => lengthDetail('at least', schema.minLength as number),
  maxLength: (schema) => lengthDetail('at most', schema.maxLength as number),
  pattern: (schema) => patternDetail(schema.pattern as string),
  format: (schema) => formatDetail(schema.format as string),
  minItems: (schema) => itemCountDetail('at least', schema.minItems as number),
  maxItems: (schema) => itemCountDetail('at most', schema.maxItems as number),
}
