// TEMPORARY until src/json-schema/compile.ts lands: the same signature on Ajv, so the pipeline can be tested.
import { Ajv } from 'ajv'
import type { JsonSchemaNode } from '../json-schema/node.js'

const ajv = new Ajv({ strict: false, allErrors: true })

export function compileSchema(node: JsonSchemaNode) {
  const check = ajv.compile(node as object)
  return {
    validate(value: unknown) {
      if (check(value)) return { valid: true as const }
      return {
        valid: false as const,
        issues: (check.errors ?? []).map((error) => ({
          path: error.instancePath,
          keyword: error.keyword,
          message: error.message ?? 'invalid',
        })),
      }
    },
  }
}
