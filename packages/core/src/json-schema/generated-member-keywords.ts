import type { CodeGenerator, KeywordEmitter } from './code-generator.js'
import { addsNoCheck } from './keywords.js'
import type { JsonSchemaNode, JsonSchemaObject } from './node.js'
import { constantPiece } from './pointer-expression.js'
import { finite } from './source-literals.js'

/** Emitters for the keywords that check an array's items or an object's properties; each mirrors its closure. */

/** Checks the items at the indexes of `tuple`, each against its own schema. */
function tupleChecks(tuple: readonly JsonSchemaNode[], generator: CodeGenerator): string[] {
  const lines: string[] = []
  tuple.forEach((item, index) => {
    const check = generator.descend(item, `data[${index}]`, constantPiece(index))
    if (check !== '') lines.push(`if (data.length > ${index}) { ${check} }`)
  })
  return lines
}

/** Checks the items from `start` on against one schema; `false` reads as a length limit. */
function restChecks(rest: JsonSchemaNode, start: number, generator: CodeGenerator): string[] {
  if (rest === false) return [`if (data.length > ${start}) ${generator.fail}`]
  const index = generator.unique('index')
  const check = generator.descend(rest, `data[${index}]`, { text: '/', expression: index })
  return check === '' ? [] : [`for (let ${index} = ${start}; ${index} < data.length; ${index}++) { ${check} }`]
}

export const arrayEmitters = {
  minItems: (schema, generator) => [`if (data.length < ${finite(schema.minItems)}) ${generator.failOn('minItems')}`],
  maxItems: (schema, generator) => [`if (data.length > ${finite(schema.maxItems)}) ${generator.failOn('maxItems')}`],
  prefixItems: (schema, generator) => tupleChecks(schema.prefixItems!, generator),
  items(schema, generator) {
    const items = schema.items!
    if (Array.isArray(items)) return tupleChecks(items, generator)
    return restChecks(items as JsonSchemaNode, schema.prefixItems?.length ?? 0, generator)
  },
  // Only beside a tuple `items` (draft-07), as in the closure tree.
  additionalItems(schema, generator) {
    const items = schema.items
    return Array.isArray(items) ? restChecks(schema.additionalItems!, items.length, generator) : []
  },
  uniqueItems: (schema, generator) =>
    schema.uniqueItems === true
      ? [`if (data.length > 1 && !allUnique(data, ${generator.maxDepthSource})) ${generator.fail}`]
      : [],
} satisfies Record<string, KeywordEmitter>

/** Keywords of an object schema whose closure is just the fused object shape (see `object-level-issues.ts`). */
const OBJECT_SHAPE_KEYWORDS = new Set(['type', 'nullable', 'properties', 'required', 'additionalProperties'])

function isPlainObjectShape(schema: JsonSchemaObject): boolean {
  if (schema.properties === undefined || typeof schema.additionalProperties === 'object') return false
  return Object.keys(schema).every((keyword) => OBJECT_SHAPE_KEYWORDS.has(keyword) || addsNoCheck(keyword))
}

function requiredCheck(key: string, objectLevel: boolean, generator: CodeGenerator): string {
  return `if (!hasOwn(data, ${JSON.stringify(key)})) ${generator.failOn('required', objectLevel)}`
}

function propertyCount(operator: string, limit: unknown, generator: CodeGenerator): string[] {
  return [`if (Object.keys(data).length ${operator} ${finite(limit)}) ${generator.fail}`]
}

export const objectEmitters = {
  // With `required` beside it, this checks the required keys too (the closure tree's fused object shape).
  properties(schema, generator) {
    const lines: string[] = []
    const properties = schema.properties!
    const declared = Object.keys(properties)
    const required = new Set(schema.required ?? [])
    const plain = isPlainObjectShape(schema)
    // A missing required key is an object-level failure once no later declared property can fail.
    const lastChecked = declared.findLastIndex((key) => properties[key] !== true)
    declared.forEach((key, index) => {
      const child = properties[key]!
      const name = JSON.stringify(key)
      const isRequired = required.delete(key)
      if (child === true && !isRequired) return
      // Keys Object.prototype also answers (constructor, toString, __proto__…) need an own-key test; for the
      // rest a direct read suffices on JSON objects, whose prototype is a clean Object.prototype.
      const own = Reflect.has(Object.prototype, key) ? ` && hasOwn(data, ${name})` : ''
      lines.push(`const property${index} = data[${name}];`, `if (property${index} !== undefined${own}) {`)
      lines.push(generator.descend(child, `property${index}`, constantPiece(key)))
      lines.push(isRequired ? `} else ${generator.failOn('required', plain && index >= lastChecked)}` : '}')
    })
    for (const key of required) lines.push(requiredCheck(key, plain, generator))
    return lines
  },
  required: (schema, generator) =>
    schema.properties === undefined ? schema.required!.map((key) => requiredCheck(key, false, generator)) : [],
  additionalProperties(schema, generator) {
    const additional = schema.additionalProperties
    if (additional === true) return []
    const declared = Object.keys(schema.properties ?? {})
    const key = generator.unique('key')
    const known =
      declared.length === 0
        ? 'false'
        : declared.length <= 8
          ? declared.map((name) => `${key} === ${JSON.stringify(name)}`).join(' || ')
          : `${generator.constant(new Set(declared))}.has(${key})`
    const onExtra =
      additional === false
        ? generator.failOn('additionalProperties', isPlainObjectShape(schema))
        : generator.descend(additional!, `data[${key}]`, { text: '', expression: `pointerPiece(${key})` })
    return [`for (const ${key} in data) { if (!(${known}) && hasOwn(data, ${key})) { ${onExtra} } }`]
  },
  propertyNames(schema, generator) {
    const names = schema.propertyNames!
    if (names === true) return []
    const key = generator.unique('key')
    return [
      `for (const ${key} in data) if (hasOwn(data, ${key}) && !${generator.test(names, key, false)}) ${generator.fail}`,
    ]
  },
  minProperties: (schema, generator) => propertyCount('<', schema.minProperties, generator),
  maxProperties: (schema, generator) => propertyCount('>', schema.maxProperties, generator),
} satisfies Record<string, KeywordEmitter>
