import type { ContentPart, ImagePart, TextPart } from '../../definition/content.js'
import type { DeferredToolResult, ToolCall } from '../../pipeline/call.js'
import { argumentsText } from '../results/arguments-text.js'
import { decodeCall, type ParseCallsOptions } from '../results/decode-call.js'
import {
  asTextOrImage,
  contextParts,
  dataUrl,
  imageFromDataUrl,
  type ProviderResultView,
  providerNameOf,
  type RenderResultsOptions,
  resultsToRender,
} from '../results/result-parts.js'

/** A Responses API `function_call` output item (structurally `ResponseFunctionToolCall`). */
export interface OpenAIFunctionCallItem {
  type: 'function_call'
  call_id: string
  name: string
  arguments: string
  id?: string
}

/** A text or image part of a Responses API input message. */
export type OpenAIResponsesInputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }

/** A `function_call_output` input item. Its output may hold text and images. */
export interface OpenAIFunctionCallOutputItem {
  type: 'function_call_output'
  call_id: string
  output: string | OpenAIResponsesInputPart[]
}

/** A user input message of the Responses API. */
export interface OpenAIResponsesUserMessage {
  type: 'message'
  role: 'user'
  content: OpenAIResponsesInputPart[]
}

/** The `function_call` items of a response's `output` as our calls; other items are skipped. */
export function fromOpenAIResponsesCalls(
  items: readonly { type: string }[],
  options: ParseCallsOptions = {},
): ToolCall[] {
  return items.flatMap((item) => {
    if (item.type !== 'function_call') return []
    const call = item as OpenAIFunctionCallItem
    return [decodeCall(call.call_id, call.name, call.arguments, options)]
  })
}

/**
 * One `function_call_output` item per result, in order. Its `output` is a string for text-only results,
 * or `input_text`/`input_image` parts when there are images (the openai SDK's `ResponseFunctionCallOutputItemList`;
 * https://platform.openai.com/docs/api-reference/responses/create#responses-create-input). Contexts follow as one user message.
 */
export function toOpenAIResponsesItems(
  results: readonly DeferredToolResult[],
  options: RenderResultsOptions = {},
): (OpenAIFunctionCallOutputItem | OpenAIResponsesUserMessage)[] {
  const rendered = resultsToRender(results, options)
  const items: (OpenAIFunctionCallOutputItem | OpenAIResponsesUserMessage)[] = rendered.map((result) => {
    const parts = asTextOrImage(result.content)
    return {
      type: 'function_call_output',
      call_id: result.id,
      output: parts.every((part) => part.type === 'text')
        ? parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n')
        : parts.map(inputPart),
    }
  })
  const contexts = asTextOrImage(contextParts(rendered))
  if (contexts.length > 0) items.push({ type: 'message', role: 'user', content: contexts.map(inputPart) })
  return items
}

/** Our calls as `function_call` items (for replaying a conversation). */
export function toOpenAIResponsesCalls(
  calls: readonly ToolCall[],
  options: RenderResultsOptions = {},
): OpenAIFunctionCallItem[] {
  return calls.map((call) => ({
    type: 'function_call',
    call_id: call.id,
    name: providerNameOf(call.name, options.report),
    arguments: argumentsText(call.arguments),
  }))
}

/** Reads results back from `function_call_output` items. */
export function readOpenAIResponsesResults(items: readonly { type: string }[]): ProviderResultView[] {
  return items.flatMap((item) => {
    if (item.type !== 'function_call_output') return []
    const { call_id: id, output } = item as OpenAIFunctionCallOutputItem
    const content: ContentPart[] =
      typeof output === 'string'
        ? [{ type: 'text', text: output }]
        : output.flatMap((part): ContentPart[] => {
            if (part.type === 'input_text') return [{ type: 'text', text: part.text }]
            const image = imageFromDataUrl(part.image_url)
            return image === undefined ? [] : [image]
          })
    return [{ id, isError: undefined, content }]
  })
}

function inputPart(part: TextPart | ImagePart): OpenAIResponsesInputPart {
  return part.type === 'text'
    ? { type: 'input_text', text: part.text }
    : { type: 'input_image', image_url: dataUrl(part), detail: 'auto' }
}
