import type { JsonSchemaNode } from '../node.js'

/** Schemas and values that reach every kind of generated check, for hosts with and without code generation. */
export const codeGenerationCases: readonly { schema: JsonSchemaNode; values: readonly unknown[] }[] = [
  {
    schema: {
      type: 'object',
      properties: { path: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1 } },
      required: ['path'],
      additionalProperties: false,
    },
    values: [{ path: 'a' }, { path: '' }, { limit: 0, extra: true }, 'text'],
  },
  {
    schema: {
      oneOf: [
        { type: 'object', properties: { kind: { const: 'a' }, n: { type: 'number' } }, required: ['kind', 'n'] },
        { type: 'object', properties: { kind: { const: 'b' } }, required: ['kind'] },
      ],
    },
    values: [{ kind: 'a', n: 1 }, { kind: 'a', n: 'x' }, { kind: 'c' }, null],
  },
  {
    schema: { type: 'array', items: { enum: [1, 2, 3] }, uniqueItems: true, maxItems: 3 },
    values: [[1, 2], [1, 1], [4], [1, 2, 3, 1]],
  },
]
