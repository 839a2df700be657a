import type { ContentPart } from '../../definition/content.js'
import type { DeferredToolResult, ToolCall } from '../../pipeline/call.js'
import { argumentsText } from '../results/arguments-text.js'
import { decodeCall, type ParseCallsOptions } from '../results/decode-call.js'
import {
  asTextOrImage,
  contextParts,
  dataUrl,
  imageFromDataUrl,
  imagePlaceholder,
  joinText,
  type ProviderResultView,
  providerNameOf,
  type RenderResultsOptions,
  resultsToRender,
} from '../results/result-parts.js'

/** A Chat Completions assistant `tool_calls[]` entry (structurally the openai SDK's function tool call). */
export interface OpenAIChatToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

/** The `tool` message that answers one Chat Completions tool call. */
export interface OpenAIChatToolMessage {
  role: 'tool'
  tool_call_id: string
  content: string
}

/** A text or image part of a Chat Completions user message. */
export type OpenAIChatUserPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

/** The user message after the tool messages that carries results' images, which a tool message cannot hold. */
export interface OpenAIChatUserMessage {
  role: 'user'
  content: OpenAIChatUserPart[]
}

/** Heads the images of one result in the trailing user message; `readOpenAIChatResults` reads it back. */
const IMAGES_FROM = 'Images from tool call'

/** The assistant message's `tool_calls` as our calls. Entries of other types (custom tools) are skipped. */
export function fromOpenAIChatToolCalls(
  toolCalls: readonly { id: string; type: string; function?: { name: string; arguments: string } }[] | null | undefined,
  options: ParseCallsOptions = {},
): ToolCall[] {
  return (toolCalls ?? []).flatMap((call) =>
    call.type === 'function' && call.function !== undefined
      ? [decodeCall(call.id, call.function.name, call.function.arguments, options)]
      : [],
  )
}

/**
 * One `tool` message per result, in order, then at most one `user` message.
 * Chat Completions tool messages take text only (`content: string | text parts`,
 * https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages): an image in a result is
 * named in the tool message and attached to the user message that follows all tool messages (a user message
 * between tool messages would break the call/result pairing). Contexts go to that user message too.
 */
export function toOpenAIChatMessages(
  results: readonly DeferredToolResult[],
  options: RenderResultsOptions = {},
): (OpenAIChatToolMessage | OpenAIChatUserMessage)[] {
  const rendered = resultsToRender(results, options)
  const attachments: OpenAIChatUserPart[] = []
  const messages: (OpenAIChatToolMessage | OpenAIChatUserMessage)[] = rendered.map((result) => {
    let announced = false
    const texts = asTextOrImage(result.content).map((part) => {
      if (part.type === 'text') return part.text
      if (!announced) attachments.push({ type: 'text', text: `${IMAGES_FROM} ${result.id}:` })
      announced = true
      attachments.push({ type: 'image_url', image_url: { url: dataUrl(part) } })
      return imagePlaceholder(part, 'attached in the next user message')
    })
    return { role: 'tool', tool_call_id: result.id, content: joinText(texts) }
  })
  for (const part of asTextOrImage(contextParts(rendered))) {
    attachments.push(part.type === 'text' ? part : { type: 'image_url', image_url: { url: dataUrl(part) } })
  }
  if (attachments.length > 0) messages.push({ role: 'user', content: attachments })
  return messages
}

/** Our calls as an assistant message's `tool_calls` (for replaying a conversation). */
export function toOpenAIChatToolCalls(
  calls: readonly ToolCall[],
  options: RenderResultsOptions = {},
): OpenAIChatToolCall[] {
  return calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: providerNameOf(call.name, options.report), arguments: argumentsText(call.arguments) },
  }))
}

/** Reads results back from `tool` messages and the user message of images that follows them. */
export function readOpenAIChatResults(
  messages: readonly (OpenAIChatToolMessage | OpenAIChatUserMessage | { role: string })[],
): ProviderResultView[] {
  const images = new Map<string, ContentPart[]>()
  for (const message of messages) {
    if (message.role !== 'user' || !('content' in message) || !Array.isArray(message.content)) continue
    let owner: string | undefined
    for (const part of message.content as OpenAIChatUserPart[]) {
      if (part.type === 'text' && part.text.startsWith(IMAGES_FROM)) owner = part.text.slice(IMAGES_FROM.length + 1, -1)
      const image = part.type === 'image_url' ? imageFromDataUrl(part.image_url.url) : undefined
      if (owner !== undefined && image !== undefined) images.set(owner, [...(images.get(owner) ?? []), image])
    }
  }
  return messages.flatMap((message) => {
    if (message.role !== 'tool') return []
    const tool = message as OpenAIChatToolMessage
    const content: ContentPart[] = [{ type: 'text', text: tool.content }, ...(images.get(tool.tool_call_id) ?? [])]
    return [{ id: tool.tool_call_id, isError: undefined, content }]
  })
}
