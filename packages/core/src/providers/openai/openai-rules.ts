import { CONDITIONAL_KEYWORDS, type KeywordTable, rulesFor } from '../schema/keyword-rules.js'
import type { NameRule } from '../tool-names.js'

/**
 * Function names: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64."
 * (openai SDK `FunctionDefinition.name`; https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools)
 */
export const OPENAI_NAME_RULE: NameRule = {
  valid: /^[a-zA-Z0-9_-]{1,64}$/,
  invalidCharacter: /[^a-zA-Z0-9_-]/,
  maxLength: 64,
}

/**
 * Strict mode accepts a subset of JSON Schema.
 * https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 * https://platform.openai.com/docs/guides/function-calling#strict-mode
 * Supported: string, number, boolean, integer, object, array, enum, anyOf; `$defs`/`$ref` (recursion allowed);
 * strings: pattern, format (list below); numbers: multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum;
 * arrays: minItems, maxItems. Every object needs `additionalProperties: false` and every property listed in `required`.
 * Unsupported (the API answers 400 "… is not permitted"): allOf, not, if/then/else, dependentRequired,
 * dependentSchemas, patternProperties, unevaluatedProperties, propertyNames, minProperties, maxProperties,
 * unevaluatedItems, contains, minContains, maxContains, uniqueItems, minLength, maxLength, default.
 * The openai SDK's own strict converter (`openai/src/lib/transform.ts`) rejects the same list.
 */
export const OPENAI_STRICT_KEYWORDS: KeywordTable = {
  rules: {
    ...rulesFor('keep', [
      'type',
      'title',
      'description',
      'enum',
      'const',
      'anyOf',
      '$ref',
      'properties',
      'required',
      'additionalProperties',
      'items',
      'pattern',
      'format',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
      'minItems',
      'maxItems',
    ]),
    // Narrowing keywords the model cannot be told in strict mode: our validator still enforces them.
    ...rulesFor('drop', [
      'minLength',
      'maxLength',
      'uniqueItems',
      'minProperties',
      'maxProperties',
      'propertyNames',
      'not',
      'contains',
      'dependentRequired',
      'default',
      'examples',
      'deprecated',
      'readOnly',
      'writeOnly',
    ]),
    // Dropping these would change which values the model may send.
    ...rulesFor('refuse', ['allOf', 'prefixItems', 'additionalItems', ...CONDITIONAL_KEYWORDS]),
  },
  otherwise: 'drop',
  formats: new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']),
}

/** Non-strict function parameters take any JSON Schema; we only send what normalization produced. */
export const OPENAI_LOOSE_KEYWORDS: KeywordTable = { rules: {}, otherwise: 'keep' }

/**
 * Strict-mode size limits (https://platform.openai.com/docs/guides/structured-outputs#objects-have-limitations-on-nesting-depth-and-size):
 * up to 5000 object properties in total, 10 levels of object nesting, 1000 enum values in total.
 */
export const OPENAI_STRICT_LIMITS = { properties: 5000, nesting: 10, enumValues: 1000 } as const

/** "A max of 128 functions are supported." (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools) */
export const OPENAI_MAX_TOOLS = 128
