import type { ContentPart, ImagePart, TextPart } from '../../definition/content.js'
import type { DeferredToolResult, ToolCall } from '../../pipeline/call.js'
import { argumentsObject } from '../results/arguments-text.js'
import { decodeCall, type ParseCallsOptions } from '../results/decode-call.js'
import {
  asTextOrImage,
  contextParts,
  imagePlaceholder,
  isPending,
  type ProviderResultView,
  providerNameOf,
  type RenderResultsOptions,
  resultsToRender,
} from '../results/result-parts.js'
import { argumentsValueOf } from '../turn-calls.js'

/** A `tool_use` content block (structurally `ToolUseBlock` of @anthropic-ai/sdk). */
export interface AnthropicToolUseBlock {
  type: 'tool_use'
  id: string
  name: string
  input: unknown
}

/** A text block or base64 image block of an Anthropic message. */
export type AnthropicContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageType; data: string } }

/** The `tool_result` block that answers one Anthropic `tool_use` block. */
export interface AnthropicToolResultBlock {
  type: 'tool_result'
  tool_use_id: string
  /** Left out when the result shows nothing: the API refuses empty text blocks. */
  content?: AnthropicContentBlock[]
  is_error?: true
}

/** The user message that carries tool results back to Anthropic. */
export interface AnthropicUserMessage {
  role: 'user'
  content: (AnthropicToolResultBlock | AnthropicContentBlock)[]
}

/** Image types a base64 image block takes (the SDK's `Base64ImageSource.media_type`). */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const
type AnthropicImageType = (typeof IMAGE_TYPES)[number]

/**
 * The `tool_use` blocks of an assistant message's content as our calls; other blocks are skipped. Input that is not
 * an object reaches the pipeline as JSON text, which refuses it (`INVALID_ARGUMENTS`); absent input is `{}`.
 */
export function fromAnthropicToolUses(
  content: readonly { type: string }[],
  options: ParseCallsOptions = {},
): ToolCall[] {
  return content.flatMap((block) => {
    if (block.type !== 'tool_use') return []
    const use = block as AnthropicToolUseBlock
    return [decodeCall(use.id, use.name, argumentsValueOf(use.input), options)]
  })
}

/**
 * The user message that answers an assistant turn: one `tool_result` per result, in order and first (the API
 * wants tool results before any other block), failures flagged `is_error` (a pending approval is not one: it reads
 * its own text), images as image blocks; contexts follow.
 * https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks
 */
export function toAnthropicToolResults(
  results: readonly DeferredToolResult[],
  options: RenderResultsOptions = {},
): AnthropicUserMessage {
  const rendered = resultsToRender(results, options)
  const blocks: AnthropicUserMessage['content'] = rendered.map((result) => {
    const base: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: result.id }
    const block =
      result.content.length === 0 ? base : { ...base, content: asTextOrImage(result.content).map(contentBlock) }
    return result.ok || isPending(result) ? block : { ...block, is_error: true }
  })
  blocks.push(...asTextOrImage(contextParts(rendered)).map(contentBlock))
  return { role: 'user', content: blocks }
}

/** Our calls as `tool_use` blocks (for replaying a conversation). */
export function toAnthropicToolUses(
  calls: readonly ToolCall[],
  options: RenderResultsOptions = {},
): AnthropicToolUseBlock[] {
  return calls.map((call) => ({
    type: 'tool_use',
    id: call.id,
    name: providerNameOf(call.name, options.report),
    input: argumentsObject(call.arguments),
  }))
}

/** Reads results back from a user message's `tool_result` blocks. */
export function readAnthropicToolResults(content: readonly { type: string }[]): ProviderResultView[] {
  return content.flatMap((block) => {
    if (block.type !== 'tool_result') return []
    const result = block as AnthropicToolResultBlock
    const parts = (result.content ?? []).map(
      (part): ContentPart =>
        part.type === 'text'
          ? { type: 'text', text: part.text }
          : { type: 'image', mimeType: part.source.media_type, data: part.source.data },
    )
    return [{ id: result.tool_use_id, isError: result.is_error === true, content: parts }]
  })
}

function contentBlock(part: TextPart | ImagePart): AnthropicContentBlock {
  if (part.type === 'text') return { type: 'text', text: part.text }
  if (!isAnthropicImage(part))
    return { type: 'text', text: imagePlaceholder(part, 'left out: the API takes JPEG, PNG, GIF and WebP') }
  return { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } }
}

function isAnthropicImage(part: ImagePart): part is ImagePart & { mimeType: AnthropicImageType } {
  return (IMAGE_TYPES as readonly string[]).includes(part.mimeType)
}
