import type { JsonSchemaTypeName } from '../../json-schema/node.js'
import { CONDITIONAL_KEYWORDS, type KeywordTable, rulesFor } from '../schema/keyword-rules.js'
import type { NameRule } from '../tool-names.js'

/**
 * Function names: "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores,
 * dots, colons and dashes, with a maximum length of 128." https://ai.google.dev/api/caching#FunctionDeclaration
 * Earlier revisions (and Vertex AI's older API) said 64; we keep to 64, which every revision accepts.
 */
export const GEMINI_NAME_RULE: NameRule = {
  valid: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
  invalidCharacter: /[^a-zA-Z0-9_.:-]/,
  first: /[a-zA-Z_]/,
  maxLength: 64,
}

/**
 * `FunctionDeclaration.parameters` is a `Schema`: a subset of the OpenAPI 3.0 schema object.
 * https://ai.google.dev/api/caching#Schema — fields: type (required; an enum: STRING, NUMBER, INTEGER,
 * BOOLEAN, ARRAY, OBJECT, NULL), format, title, description, nullable, enum (strings), maxItems, minItems,
 * properties, required, minProperties, maxProperties, minLength, maxLength, pattern, example, anyOf,
 * propertyOrdering, default, items, minimum, maximum. No `$ref`, no `$schema`, no type arrays (use `nullable`),
 * no `additionalProperties`; an OBJECT needs non-empty `properties`
 * (https://ai.google.dev/gemini-api/docs/function-calling#function_declarations).
 */
export const GEMINI_OPENAPI_KEYWORDS: KeywordTable = {
  // `additionalProperties` and `const` are kept here and rewritten or judged by the projector.
  rules: {
    ...rulesFor('keep', [
      'type',
      'format',
      'title',
      'description',
      'enum',
      'maxItems',
      'minItems',
      'properties',
      'required',
      'minProperties',
      'maxProperties',
      'minLength',
      'maxLength',
      'pattern',
      'anyOf',
      'default',
      'items',
      'minimum',
      'maximum',
      'additionalProperties',
      'const',
    ]),
    ...rulesFor('drop', [
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
      'uniqueItems',
      'propertyNames',
      'not',
      'contains',
      'dependentRequired',
      'examples',
      'deprecated',
      'readOnly',
      'writeOnly',
    ]),
    ...rulesFor('refuse', ['allOf', 'prefixItems', 'additionalItems', ...CONDITIONAL_KEYWORDS]),
  },
  otherwise: 'drop',
}

/** Formats per OpenAPI type that `Schema.format` takes (same page): others are dropped. */
export const GEMINI_FORMATS: Readonly<Partial<Record<JsonSchemaTypeName, ReadonlySet<string>>>> = {
  string: new Set(['enum', 'date-time']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
}

/** The `Type` enum values of the Gemini API for our type names. */
export const GEMINI_TYPES = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
  null: 'NULL',
} as const satisfies Record<JsonSchemaTypeName, string>

/**
 * `FunctionDeclaration.parametersJsonSchema` takes JSON Schema; the supported subset is: $id, $defs, $ref,
 * $anchor, type, format, title, description, enum (strings and numbers), items, prefixItems, minItems,
 * maxItems, minimum, maximum, anyOf, oneOf (read as anyOf), properties, additionalProperties, required.
 * https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support
 */
export const GEMINI_JSON_SCHEMA_KEYWORDS: KeywordTable = {
  rules: {
    ...rulesFor('keep', [
      '$ref',
      'type',
      'format',
      'title',
      'description',
      'enum',
      'const',
      'items',
      'prefixItems',
      'minItems',
      'maxItems',
      'minimum',
      'maximum',
      'anyOf',
      'properties',
      'additionalProperties',
      'required',
    ]),
    ...rulesFor('refuse', ['allOf', ...CONDITIONAL_KEYWORDS]),
  },
  otherwise: 'drop',
}
