import type { JsonValue } from '../json-schema/json-value.js'
import type { JsonSchemaObject } from '../json-schema/node.js'
import { SchemaSpecError } from './schema-spec-error.js'
import { childPath } from './spec-path.js'

const typeTests: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  integer: (value) => Number.isSafeInteger(value),
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
  array: Array.isArray,
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right)
}

/** Why `value` does not match `node`, or undefined. Interim: types and literals; full validation plugs in here. */
function mismatch(node: JsonSchemaObject, value: JsonValue): string | undefined {
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type]
  if (types.length > 0 && !types.some((type) => typeTests[type]?.(value))) return `expected ${types.join(' or ')}`
  if (node.enum !== undefined && !node.enum.some((member) => sameJson(member, value))) return 'not one of enum'
  if ('const' in node && !sameJson(node.const, value)) return `expected ${JSON.stringify(node.const)}`
  return undefined
}

/** A `default` must itself be a valid value of the schema it sits in. */
export function checkSpecValues(node: JsonSchemaObject, path: string): void {
  if (!('default' in node)) return
  const { default: value, ...rest } = node
  const reason = mismatch(rest, value as JsonValue)
  if (reason !== undefined) {
    throw new SchemaSpecError(
      childPath(path, 'default'),
      `${JSON.stringify(value)} is not valid for its own schema: ${reason}`,
    )
  }
}
