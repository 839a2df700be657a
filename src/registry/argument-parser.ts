import type { AnyToolDefinition } from '../definition/tool-definition.js'
import { defaultFillerFor } from '../json-schema/default-filler.js'
import type { JsonObject } from '../json-schema/json-value.js'
import { runStandardValidate, type StandardVerdict } from '../schema/standard-validate.js'

/**
 * What a definition makes of arguments before policy and the body see them: a Standard Schema's own parse, or the
 * schema's defaults filled in. A promise only when the library answered with one.
 */
export type ArgumentParser = (args: JsonObject) => StandardVerdict | Promise<StandardVerdict>

/**
 * The parser for a definition, or undefined when arguments pass as they are (no Standard Schema, no default to fill):
 * then a call pays nothing here.
 */
export function argumentParserFor(definition: AnyToolDefinition): ArgumentParser | undefined {
  const standard = definition.standardParameters
  if (standard !== undefined) return (args) => runStandardValidate(standard, args)
  const fill = defaultFillerFor(definition.parameters)
  if (fill === undefined) return undefined
  return (args) => ({ kind: 'valid', value: fill(args) })
}
