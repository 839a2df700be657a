import { compileSchema } from '../json-schema/compile.js'
import type { JsonSchemaObject } from '../json-schema/node.js'
import { SchemaSpecError } from './schema-spec-error.js'
import { childPath } from './spec-path.js'

/**
 * Why `value` fails `node`, or undefined. Lenient: a raw node nested inside may carry keywords we only annotate.
 * Without code generation: each node is checked once, where generating a validator would cost more than it saves.
 */
function mismatch(node: JsonSchemaObject, value: unknown): string | undefined {
  const result = compileSchema(node, { lenient: true, codegen: false }).validate(value)
  return result.valid ? undefined : result.issues.map((issue) => issue.message).join('; ')
}

function without(node: JsonSchemaObject, keys: readonly string[]): JsonSchemaObject {
  return Object.fromEntries(Object.entries(node).filter(([key]) => !keys.includes(key)))
}

/**
 * The literals a spec names must be values of that spec: each `enum` member and the `const` must pass the other
 * constraints (a 2-character member under `minLength: 3` can never be sent), and a `default` must pass all of them.
 */
export function checkSpecValues(node: JsonSchemaObject, path: string): void {
  const unconstrained = without(node, ['enum', 'const', 'default'])
  const members = Array.isArray(node.enum) ? node.enum : []
  members.forEach((member, index) => {
    const reason = mismatch(unconstrained, member)
    if (reason !== undefined) {
      throw new SchemaSpecError(
        childPath(childPath(path, 'enum'), index),
        `${JSON.stringify(member)} can never be valid: ${reason}`,
      )
    }
  })
  if ('const' in node) {
    const reason = mismatch(unconstrained, node.const)
    if (reason !== undefined) {
      throw new SchemaSpecError(childPath(path, 'const'), `${JSON.stringify(node.const)} can never be valid: ${reason}`)
    }
  }
  if ('default' in node) {
    const reason = mismatch(without(node, ['default']), node.default)
    if (reason !== undefined) {
      throw new SchemaSpecError(
        childPath(path, 'default'),
        `${JSON.stringify(node.default)} is not valid for its own schema: ${reason}`,
      )
    }
  }
}
