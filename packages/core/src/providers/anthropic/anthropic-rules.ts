import { CONDITIONAL_KEYWORDS, type KeywordTable, rulesFor } from '../schema/keyword-rules.js'
import type { NameRule } from '../tool-names.js'

/**
 * Tool names must match `^[a-zA-Z0-9_-]{1,64}$`
 * (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools).
 * Newer API revisions allow up to 128 characters; 64 is accepted by all of them.
 */
export const ANTHROPIC_NAME_RULE: NameRule = {
  valid: /^[a-zA-Z0-9_-]{1,64}$/,
  invalidCharacter: /[^a-zA-Z0-9_-]/,
  maxLength: 64,
}

/**
 * Without strict mode `input_schema` is a JSON Schema whose root is `type: "object"`; a root
 * `oneOf`/`anyOf`/`allOf` is refused (the SDK types it as `{ type: 'object'; properties?; required? }`).
 * https://docs.anthropic.com/en/api/messages#body-tools
 */
export const ANTHROPIC_LOOSE_KEYWORDS: KeywordTable = { rules: {}, otherwise: 'keep' }

/**
 * Strict tool use (structured outputs) supports: the basic types, enum of primitives, const, anyOf, allOf
 * (not with `$ref`), `$ref`/`$defs`/`definitions` (not recursive, not external), default, required,
 * `additionalProperties: false`, string formats (list below), pattern (simple regexes only), array `minItems` 0 or 1.
 * We drop `pattern` too (described, and still checked locally): a regex outside the simple subset fails the request,
 * and the SDK's own converter does not keep it either.
 * Not supported: numerical constraints (minimum, maximum, multipleOf, …), string length constraints,
 * array constraints beyond minItems 0/1, `additionalProperties` other than false, recursive schemas.
 * https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations
 * The SDK's own converter (`@anthropic-ai/sdk/lib/transform-json-schema`) keeps the same subset.
 */
export const ANTHROPIC_STRICT_KEYWORDS: KeywordTable = {
  rules: {
    ...rulesFor('keep', [
      'type',
      'title',
      'description',
      'enum',
      'const',
      'anyOf',
      'allOf',
      '$ref',
      'properties',
      'required',
      'additionalProperties',
      'items',
      'format',
      'default',
      'minItems',
    ]),
    ...rulesFor('drop', [
      'pattern',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
      'minLength',
      'maxLength',
      'maxItems',
      'uniqueItems',
      'minProperties',
      'maxProperties',
      'propertyNames',
      'not',
      'contains',
      'dependentRequired',
      'examples',
    ]),
    ...rulesFor('refuse', ['prefixItems', 'additionalItems', ...CONDITIONAL_KEYWORDS]),
  },
  otherwise: 'drop',
  formats: new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']),
}

/**
 * Request-wide limits of strict tool use (same page, "Explicit limits"): strict tools per request, optional
 * parameters over all strict schemas (every property not in `required`, at any depth), and parameters typed as a
 * union (`anyOf` or a type array such as `["string", "null"]`) over all strict schemas.
 * A tool that would go over is sent non-strict instead.
 */
export const ANTHROPIC_STRICT_LIMITS = { tools: 20, optionalParameters: 24, unionParameters: 16 } as const
