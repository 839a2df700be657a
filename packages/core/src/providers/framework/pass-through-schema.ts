import type { JsonSchemaObject } from '../../json-schema/node.js'

/** A Standard Schema (v1, with its JSON Schema extension) as the frameworks read one. */
export interface PassThroughSchema {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: 'qilin-tools'
    readonly validate: (value: unknown) => { readonly value: unknown }
    readonly jsonSchema: {
      readonly input: (options?: unknown) => JsonSchemaObject
      readonly output: (options?: unknown) => JsonSchemaObject
    }
  }
}

const accept = (value: unknown) => ({ value })

/**
 * Our parameters schema as a Standard Schema that shows the model exactly that schema and accepts every value: the
 * pipeline is the one validator, so an invalid call reaches the model in our words, with our error code.
 */
export function passThroughSchema(parameters: JsonSchemaObject): PassThroughSchema {
  const schema = () => parameters
  return {
    '~standard': { version: 1, vendor: 'qilin-tools', validate: accept, jsonSchema: { input: schema, output: schema } },
  }
}
