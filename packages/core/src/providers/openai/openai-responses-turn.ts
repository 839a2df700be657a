import { argumentsTextOf, createCallIds, notAResponse, recordOf, recordsOf, textOf } from '../turn-calls.js'
import type { ReadTurn, TurnContext, TurnFormat } from '../turn-format.js'
import {
  fromOpenAIResponsesCalls,
  type OpenAIFunctionCallItem,
  type OpenAIFunctionCallOutputItem,
  type OpenAIResponsesUserMessage,
  toOpenAIResponsesItems,
} from './openai-responses-items.js'
import { type OpenAIResponsesTool, toOpenAITools } from './to-openai-tools.js'

/** What `runToolTurn` reads of a Responses API response (structurally the openai SDK's `Response`). */
export interface OpenAIResponsesResponse {
  readonly output: readonly { readonly type: string }[]
}

/**
 * An item a Responses turn appends: each output item of the response as it came (reasoning and messages
 * included, which a stateless conversation must send back), then one `function_call_output` per call.
 */
export type OpenAIResponsesTurnItem<OutputItem = { readonly type: string }> =
  | OutputItem
  | OpenAIFunctionCallOutputItem
  | OpenAIResponsesUserMessage

/** The Responses request fields for the tool layer: `instructions`, and the tools when there are any. */
export interface OpenAIResponsesRequest {
  instructions?: string
  tools?: OpenAIResponsesTool[]
}

/** Responses: every output item that is an object is sent back; each `function_call` item is one call. */
export const openAIResponsesTurn: TurnFormat<
  OpenAIResponsesTurnItem<object>,
  OpenAIResponsesRequest,
  OpenAIResponsesTool
> = {
  project: (schemas) => toOpenAITools(schemas, { api: 'responses' }),
  read(response: unknown, context: TurnContext): ReadTurn<OpenAIResponsesTurnItem<object>> {
    const output = recordOf(response)?.output
    if (!Array.isArray(output)) throw notAResponse('openai-responses', 'an output array')
    const idOf = createCallIds((index) => `call_${index}`)
    const texts: string[] = []
    let index = 0
    const assistant = recordsOf(output).map((item): object => {
      if (item.type === 'message') {
        for (const part of recordsOf(item.content)) if (part.type === 'output_text') texts.push(textOf(part.text))
      }
      if (item.type !== 'function_call') return item
      const call: OpenAIFunctionCallItem = {
        ...item,
        type: 'function_call',
        call_id: idOf(item.call_id, index++),
        name: textOf(item.name),
        arguments: argumentsTextOf(item.arguments),
      }
      return call
    })
    return {
      assistant,
      calls: fromOpenAIResponsesCalls(assistant as { type: string }[], context),
      text: texts.join(''),
    }
  },
  answer: (calls, results, report) => toOpenAIResponsesItems(results, { calls, report }),
  request: (system, tools) => ({
    ...(system === '' ? {} : { instructions: system }),
    ...(tools.length > 0 ? { tools } : {}),
  }),
}
