import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import type { ToolSchema } from '../registry/tool-schema.js'
import {
  type AnthropicRequest,
  type AnthropicResponse,
  type AnthropicTurnMessage,
  anthropicTurn,
} from './anthropic/anthropic-turn.js'
import { type GeminiRequest, type GeminiResponse, type GeminiTurnContent, geminiTurn } from './gemini/gemini-turn.js'
import {
  type OpenAIChatRequest,
  type OpenAIChatResponse,
  type OpenAIChatTurnMessage,
  openAIChatTurn,
} from './openai/openai-chat-turn.js'
import {
  type OpenAIResponsesRequest,
  type OpenAIResponsesResponse,
  type OpenAIResponsesTurnItem,
  openAIResponsesTurn,
} from './openai/openai-responses-turn.js'
import type { ProjectionReport } from './projection-report.js'
import type { TurnFormat } from './turn-format.js'

/** The provider APIs `runToolTurn` and `toProviderRequest` speak. */
export type ProviderName = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini'

/** The response each provider's turn reads (structurally the SDKs' own response types). */
export interface ProviderResponses {
  'openai-chat': OpenAIChatResponse
  'openai-responses': OpenAIResponsesResponse
  anthropic: AnthropicResponse
  gemini: GeminiResponse
}

/** The request fields `toProviderRequest` writes for each provider. */
export interface ProviderRequests {
  'openai-chat': OpenAIChatRequest
  'openai-responses': OpenAIResponsesRequest
  anthropic: AnthropicRequest
  gemini: GeminiRequest
}

type ElementOf<Value> = Value extends readonly (infer Element)[] ? Element : never
type OutputItemOf<Response> = Response extends { readonly output: infer Output } ? ElementOf<Output> : never
type BlockOf<Response> = Response extends { readonly content: infer Content } ? ElementOf<Content> : never
type PartOf<Response> = Response extends { readonly candidates?: infer Candidates }
  ? NonNullable<ElementOf<Candidates>> extends { readonly content?: infer Content }
    ? NonNullable<Content> extends { readonly parts?: infer Parts }
      ? ElementOf<NonNullable<Parts>>
      : never
    : never
  : never

/**
 * What a turn of `Provider` appends to the conversation. Where the response's own items go back (Responses output
 * items, Anthropic content blocks, Gemini parts) they keep the response's types, so the SDK takes them as input.
 */
export type ProviderTurnMessage<Provider extends ProviderName, Response = ProviderResponses[Provider]> = {
  'openai-chat': OpenAIChatTurnMessage
  'openai-responses': OpenAIResponsesTurnItem<OutputItemOf<Response>>
  anthropic: AnthropicTurnMessage<BlockOf<Response>>
  gemini: GeminiTurnContent<PartOf<Response>>
}[Provider]

/** Each provider's part of a turn, one table so a new provider fails to compile until it has every part. */
export const turnFormats = {
  'openai-chat': openAIChatTurn,
  'openai-responses': openAIResponsesTurn,
  anthropic: anthropicTurn,
  gemini: geminiTurn,
} satisfies Record<ProviderName, TurnFormat<object, object, object>>

/** The format for a provider name from the host, refusing a name that is not one (`__proto__` included). */
export function turnFormatOf(provider: unknown, caller: string): TurnFormat<object, object, object> {
  if (typeof provider !== 'string' || !Object.hasOwn(turnFormats, provider)) {
    throw new InvalidArgumentError(
      `${caller}: provider must be one of ${Object.keys(turnFormats)
        .map((name) => `'${name}'`)
        .join(', ')}`,
    )
  }
  return turnFormats[provider as ProviderName] as TurnFormat<object, object, object>
}

interface Projected {
  readonly tools: object[]
  readonly report: ProjectionReport
}

/** Projections per prompt tool list (the runtime keeps the list while the tools are unchanged) and provider. */
const projections = new WeakMap<readonly ToolSchema[], Map<TurnFormat<object, object, object>, Projected>>()

/**
 * The tools as `format` is sent them, projected once per tool list: `toProviderRequest` and `runToolTurn` read the
 * same projection, so names the request renamed map back in the turn.
 */
export function projectionOf(format: TurnFormat<object, object, object>, tools: readonly ToolSchema[]): Projected {
  const byFormat = projections.get(tools) ?? new Map<TurnFormat<object, object, object>, Projected>()
  projections.set(tools, byFormat)
  const projected = byFormat.get(format) ?? format.project(tools)
  byFormat.set(format, projected)
  return projected
}
