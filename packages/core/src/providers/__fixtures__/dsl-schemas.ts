import { z } from 'zod'
import type { JsonSchemaObject } from '../../json-schema/node.js'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { jsonSchema } from '../../schema/json-schema-spec.js'
import { parametersToJsonSchema } from '../../schema/to-json-schema.js'
import type { ParametersSpec } from '../../schema/value-spec.js'

/** Every DSL kind and option, a zod schema (Standard Schema intake), and the raw JSON Schema shapes providers find hard. */
const specs: Record<string, ParametersSpec> = {
  strings: {
    path: { type: 'string', required: true, description: 'File path', minLength: 1, maxLength: 4096 },
    glob: { type: 'string', pattern: '^[^/]+$' },
    when: { type: 'string', format: 'date-time' },
    site: { type: 'string', format: 'uri' },
    mode: { type: 'string', enum: ['read', 'write'], default: 'read' },
    kind: { type: 'string', const: 'file' },
    note: { type: 'string', nullable: true },
  },
  numbers: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.01 },
    level: { type: 'integer', enum: [1, 2, 3] },
    weight: { type: 'number', nullable: true, required: true },
  },
  scalars: {
    force: { type: 'boolean', default: false },
    nothing: { type: 'null' },
    answer: { type: 'boolean', const: true },
  },
  arrays: {
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 10, uniqueItems: true, required: true },
    anything: { type: 'array' },
    matrix: { type: 'array', items: { type: 'array', items: { type: 'number' } }, minItems: 2 },
    maybe: { type: 'array', items: { type: 'integer' }, nullable: true },
  },
  objects: {
    point: {
      type: 'object',
      properties: { x: { type: 'number', required: true }, y: { type: 'number' } },
      required: true,
    },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    blob: { type: 'object' },
    nested: {
      type: 'object',
      properties: { inner: { type: 'object', properties: { deep: { type: 'string', required: true } } } },
      nullable: true,
    },
  },
  json: { payload: { type: 'json', required: true }, extra: { type: 'json' } },
  unions: {
    target: {
      oneOf: [
        {
          type: 'object',
          properties: {
            kind: { type: 'string', const: 'file', required: true },
            path: { type: 'string', required: true },
          },
        },
        {
          type: 'object',
          properties: {
            kind: { type: 'string', const: 'url', required: true },
            url: { type: 'string', required: true },
          },
        },
      ],
      required: true,
    },
    either: { oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
  },
  empty: {},
  'dotted.name with spaces': { value: { type: 'string' } },
  recursive: jsonSchema({
    type: 'object',
    properties: { tree: { $ref: '#/$defs/node' } },
    required: ['tree'],
    $defs: {
      node: {
        type: 'object',
        properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        required: ['value'],
        additionalProperties: false,
      },
    },
  }),
  referenced: jsonSchema({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { from: { $ref: '#/definitions/place' }, to: { $ref: '#/definitions/place', description: 'Where to' } },
    required: ['from', 'to'],
    definitions: {
      place: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      unused: { type: 'string' },
    },
  }),
  intersection: jsonSchema({
    type: 'object',
    properties: {
      both: {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { type: 'object', properties: { b: { type: 'number' } } },
        ],
      },
      notEmpty: { type: 'string', not: { const: '' } },
    },
  }),
  typeArrays: jsonSchema({
    type: 'object',
    properties: {
      flag: { type: ['boolean', 'string'] },
      maybeText: { type: ['string', 'null'], maxLength: 10 },
      maybeObject: { type: ['object', 'null'], properties: { id: { type: 'string' } } },
    },
  }),
  tuple: jsonSchema({
    type: 'object',
    properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
  }),
  patterned: jsonSchema({
    type: 'object',
    properties: { env: { type: 'object', patternProperties: { '^[A-Z_]+$': { type: 'string' } } } },
  }),
  rootUnion: jsonSchema({
    type: 'object',
    oneOf: [
      { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
      {
        type: 'object',
        properties: { email: { type: 'string', format: 'email' } },
        required: ['email'],
        additionalProperties: false,
      },
    ],
  }),
  rootIntersection: jsonSchema({
    type: 'object',
    allOf: [
      { $ref: '#/$defs/paging' },
      { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      { not: { required: ['cursor', 'page'] } },
    ],
    $defs: { paging: { type: 'object', properties: { cursor: { type: 'string' }, page: { type: 'integer' } } } },
  }),
  zod: z.object({
    name: z.string().min(1),
    age: z.number().int().optional(),
    tags: z.array(z.enum(['a', 'b'])).default([]),
    when: z.iso.datetime().optional(),
    shape: z.discriminatedUnion('type', [
      z.object({ type: z.literal('circle'), radius: z.number().positive() }),
      z.object({ type: z.literal('square'), side: z.number() }),
    ]),
  }),
  open: jsonSchema({
    type: 'object',
    properties: { name: { type: 'string' } },
    additionalProperties: true,
  }),
}

export const DSL_TOOL_SCHEMAS: readonly ToolSchema[] = Object.entries(specs).map(([name, spec]) => ({
  name,
  description: `Fixture: ${name}`,
  parameters: parametersToJsonSchema(spec) as JsonSchemaObject,
}))
