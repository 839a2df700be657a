import type { JsonObject } from '../json-schema/json-value.js'
import type { JsonSchemaObject } from '../json-schema/node.js'
import type { RegistryEntry } from '../registry/registry-entry.js'
import { toolSummary } from './tool-summary.js'

/** What `search_tools` tells the model in native mode; the found tools are also listed from the next request on. */
export const nativeSearchDescription =
  'Finds tools by what they do. Only some of the available tools are listed: describe the task in a few words ' +
  '(naming the service helps). Returns the best matches with their parameter schemas; a tool found here can be ' +
  'called at once and stays listed from then on.'

/** What `tools.search_tools` says of itself inside a code-mode program. */
export const codeSearchDescription =
  'Finds tools by what they do: the best matches, and their declarations ready to print. A tool found here can be ' +
  'called in this same program.'

/** Native mode: each match's name, one-line summary and full parameter schema. */
export function nativeSearchAnswer(found: readonly RegistryEntry[]): JsonObject {
  return {
    matches: found.map((entry) => ({
      name: entry.name,
      summary: toolSummary(entry.definition),
      parameters: entry.schema.parameters as unknown as JsonObject,
    })),
  }
}

/** Code mode: names and summaries, and the declarations of them all as one text. */
export function codeSearchAnswer(found: readonly RegistryEntry[], declarations: string): JsonObject {
  return {
    matches: found.map((entry) => ({ name: entry.name, summary: toolSummary(entry.definition) })),
    declarations,
  }
}

const text = Object.freeze({ type: 'string' })

/** The result `tools.search_tools` declares in a program. */
export const codeSearchOutput: JsonSchemaObject = Object.freeze({
  type: 'object',
  properties: Object.freeze({
    matches: Object.freeze({
      type: 'array',
      items: Object.freeze({
        type: 'object',
        properties: Object.freeze({ name: text, summary: text }),
        required: Object.freeze(['name', 'summary']),
      }),
    }),
    declarations: text,
  }),
  required: Object.freeze(['matches', 'declarations']),
}) as JsonSchemaObject

/** The result `tools.describe_tool` declares in a program. */
export const describeOutput: JsonSchemaObject = Object.freeze({
  type: 'object',
  properties: Object.freeze({ name: text, declarations: text }),
  required: Object.freeze(['name', 'declarations']),
}) as JsonSchemaObject

/** What `tools.describe_tool` says of itself inside a code-mode program. */
export const describeDescription = 'The declaration of one tool, by its exact name, ready to print.'
