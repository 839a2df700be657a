import type { AnyToolDefinition } from '../definition/tool-definition.js'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import { type CompiledSchema, compileSchema } from '../json-schema/compile.js'
import type { JsonSchemaNode } from '../json-schema/node.js'
import { isStandardSchema } from '../schema/standard-schema.js'
import { type ArgumentParser, argumentParserFor } from './argument-parser.js'
import type { ToolSchema } from './tool-schema.js'

export type { ValidationIssue } from '../json-schema/compile.js'

export type SchemaValidator = Pick<CompiledSchema, 'validate'>

/** Everything the pipeline needs about one definition, computed once when it is first registered. */
export interface RegistryEntry {
  readonly name: string
  readonly definition: AnyToolDefinition
  /** The model-facing projection: name, description, parameters and nothing else. */
  readonly schema: ToolSchema
  /** The JSON Schema check of the arguments; one that accepts everything when a Standard Schema judges them. */
  readonly parameters: SchemaValidator
  /** Runs after `parameters` accepted the arguments; its value is what policy and the body see. */
  readonly parse?: ArgumentParser | undefined
  readonly output: SchemaValidator | undefined
}

const acceptsAll: SchemaValidator = Object.freeze({ validate: () => Object.freeze({ valid: true as const }) })

const entries = new WeakMap<AnyToolDefinition, RegistryEntry>()
const validators = new WeakMap<object, SchemaValidator>()

/**
 * One compiled validator per schema node, shared by every registration of the same node. Compiled leniently, as
 * `defineTool` checks it: the DSL only emits keywords of our subset, and a keyword we do not enforce in a
 * wire-level schema (an MCP server's, say) is still shown to the model and enforced by whoever sent it.
 */
export function validatorFor(node: JsonSchemaNode): SchemaValidator {
  if (typeof node === 'boolean') return compileSchema(node)
  let validator = validators.get(node)
  if (validator === undefined) {
    validator = compileSchema(node, { lenient: true })
    validators.set(node, validator)
  }
  return validator
}

export function registryEntryFor(definition: AnyToolDefinition): RegistryEntry {
  let entry = entries.get(definition)
  if (entry === undefined) {
    checkDefinition(definition)
    entry = Object.freeze({
      name: definition.name,
      definition,
      schema: Object.freeze({
        name: definition.name,
        description: definition.description,
        parameters: definition.parameters,
      }),
      parameters: definition.standardParameters === undefined ? validatorFor(definition.parameters) : acceptsAll,
      parse: argumentParserFor(definition),
      output: definition.output === undefined ? undefined : validatorFor(definition.output.schema),
    })
    entries.set(definition, entry)
  }
  return entry
}

function checkDefinition(definition: AnyToolDefinition): void {
  const problem =
    typeof definition !== 'object' || definition === null
      ? 'expected a tool definition object'
      : typeof definition.name !== 'string' || definition.name.length === 0
        ? 'name must be a non-empty string'
        : typeof definition.description !== 'string'
          ? `tool ${definition.name}: description must be a string`
          : typeof definition.parameters !== 'object' || definition.parameters === null
            ? `tool ${definition.name}: parameters must be a JSON Schema object`
            : typeof definition.execute !== 'function'
              ? `tool ${definition.name}: execute must be a function`
              : definition.standardParameters !== undefined &&
                  !(
                    isStandardSchema(definition.standardParameters) &&
                    typeof definition.standardParameters['~standard'].validate === 'function'
                  )
                ? `tool ${definition.name}: standardParameters must be a Standard Schema with a validate function`
                : undefined
  if (problem !== undefined) throw new InvalidArgumentError(`register(definition): ${problem}`)
}
