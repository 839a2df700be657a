import type { AudioPart, ImagePart, TextPart } from '../../definition/content.js'
import type { JsonObject, JsonValue } from '../../json-schema/json-value.js'
import type { DeferredToolResult, ToolCall } from '../../pipeline/call.js'
import { argumentsObject } from '../results/arguments-text.js'
import { decodeCall, type ParseCallsOptions } from '../results/decode-call.js'
import {
  asTextOrMedia,
  contextParts,
  isPending,
  joinText,
  type ProviderResultView,
  providerNameOf,
  type RenderResultsOptions,
  resultsToRender,
} from '../results/result-parts.js'
import { stableHash } from '../stable-hash.js'
import { argumentsValueOf } from '../turn-calls.js'

/** A function call a Gemini model made. */
export interface GeminiFunctionCall {
  name: string
  args?: JsonObject
  /** Set by newer models; older ones leave calls unnamed and match responses by order and name. */
  id?: string
}

/** The answer to one Gemini function call. */
export interface GeminiFunctionResponse {
  name: string
  /** `output` holds what the model reads of a success, `error` of a failure (the API's documented keys). */
  response: { output: string } | { error: string }
  id?: string
}

/** One part of a Gemini turn: text, a function call, a function response or inline image data. */
export type GeminiPart =
  | { text: string }
  | { functionCall: GeminiFunctionCall }
  | { functionResponse: GeminiFunctionResponse }
  | { inlineData: { mimeType: string; data: string } }

/** One Gemini conversation turn: who speaks and its parts. */
export interface GeminiContent {
  role: 'user' | 'model'
  parts: GeminiPart[]
}

/** Prefix of ids we mint for calls that came without one; such ids are not sent back to Gemini. */
export const MINTED_ID_PREFIX = 'gemini-call-'

/**
 * The `functionCall` parts of a model turn as our calls. A call without an `id` gets one minted from the
 * turn's calls and its position, so the same turn always yields the same ids. `args` that are not an object reach
 * the pipeline as JSON text, which refuses them.
 */
export function fromGeminiFunctionCalls(parts: readonly object[], options: ParseCallsOptions = {}): ToolCall[] {
  const calls = parts.flatMap((part) => ('functionCall' in part ? [part.functionCall as GeminiFunctionCall] : []))
  const turn = stableHash(JSON.stringify(calls))
  return calls.map((call, index) =>
    decodeCall(call.id ?? `${MINTED_ID_PREFIX}${turn}-${index}`, call.name, argumentsValueOf(call.args), options),
  )
}

/**
 * The user turn that answers a model turn: one `functionResponse` per result, in the calls' order, named with
 * the provider's name; an `id` only where the model gave one. A pending approval answers with its text as `output`. Images and audio follow as `inlineData` parts under a line naming their call
 * (models before Gemini 3 read no images inside a function response), then contexts.
 * https://ai.google.dev/gemini-api/docs/function-calling ; https://ai.google.dev/api/caching#FunctionResponse
 */
export function toGeminiFunctionResponses(
  results: readonly DeferredToolResult[],
  options: RenderResultsOptions = {},
): GeminiContent {
  const rendered = resultsToRender(results, options)
  const parts: GeminiPart[] = rendered.map((result) => {
    const text = joinText(asTextOrMedia(result.content).flatMap((part) => (part.type === 'text' ? [part.text] : [])))
    const response = result.ok || isPending(result) ? { output: text } : { error: result.error.message }
    const functionResponse: GeminiFunctionResponse = { name: providerNameOf(result.name, options.report), response }
    return {
      functionResponse: result.id.startsWith(MINTED_ID_PREFIX)
        ? functionResponse
        : { ...functionResponse, id: result.id },
    }
  })
  for (const result of rendered) {
    const media = asTextOrMedia(result.content).filter((part) => part.type !== 'text')
    const heading = media.some((part) => part.type === 'audio') ? 'Images and audio' : 'Images'
    if (media.length > 0) parts.push({ text: `${heading} from tool call ${result.id}:` }, ...media.flatMap(inlineMedia))
  }
  for (const part of asTextOrMedia(contextParts(rendered)))
    parts.push(...(part.type === 'text' ? [{ text: part.text }] : inlineMedia(part)))
  return { role: 'user', parts }
}

/** Our calls as a model turn's `functionCall` parts (for replaying a conversation); minted ids are left out. */
export function toGeminiFunctionCalls(calls: readonly ToolCall[], options: RenderResultsOptions = {}): GeminiPart[] {
  return calls.map((call) => {
    const functionCall: GeminiFunctionCall = {
      name: providerNameOf(call.name, options.report),
      args: argumentsObject(call.arguments),
    }
    return { functionCall: call.id.startsWith(MINTED_ID_PREFIX) ? functionCall : { ...functionCall, id: call.id } }
  })
}

/** Reads results back from `functionResponse` parts. Ids are the model's, or minted in order as for the calls. */
export function readGeminiFunctionResponses(
  parts: readonly object[],
  calls: readonly ToolCall[],
): ProviderResultView[] {
  const responses = parts.flatMap((part) =>
    'functionResponse' in part ? [part.functionResponse as GeminiFunctionResponse] : [],
  )
  return responses.map((response, index) => {
    const failed = 'error' in response.response
    const text: JsonValue = failed
      ? (response.response as { error: string }).error
      : (response.response as { output: string }).output
    return {
      id: response.id ?? calls[index]?.id ?? '',
      isError: failed,
      content: [{ type: 'text', text: String(text) }],
    }
  })
}

function inlineMedia(part: TextPart | ImagePart | AudioPart): GeminiPart[] {
  return part.type === 'text' ? [] : [{ inlineData: { mimeType: part.mimeType, data: part.data } }]
}
