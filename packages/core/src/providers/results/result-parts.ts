import {
  type AudioPart,
  type ContentPart,
  contentFallbackText,
  type ImagePart,
  type TextPart,
} from '../../definition/content.js'
import type { DeferredToolResult, ToolCall, ToolPending } from '../../pipeline/call.js'
import type { ProjectionReport } from '../projection-report.js'
import { completeResults } from './complete-results.js'

/** What the result renderers need: the calls being answered and the projection the tools were sent with. */
export interface RenderResultsOptions {
  /** The calls these results answer: missing results are filled and extra ones dropped (see `completeResults`). */
  readonly calls?: readonly ToolCall[]
  /** The projection the tools were sent with, to write provider names where a format repeats the name. */
  readonly report?: ProjectionReport
}

export function resultsToRender(
  results: readonly DeferredToolResult[],
  options: RenderResultsOptions,
): readonly DeferredToolResult[] {
  return options.calls === undefined ? results : completeResults(options.calls, results)
}

/** Our name -> the name the provider knows the tool by. */
export function providerNameOf(name: string, report: ProjectionReport | undefined): string {
  if (report === undefined) return name
  return report.tools.find((tool) => tool.name === name && tool.status !== 'omitted')?.providerName ?? name
}

/** Parts shown after all results: every context of every result, in order. */
export function contextParts(results: readonly DeferredToolResult[]): ContentPart[] {
  return results.flatMap((result) => (result.contexts ?? []).flatMap((context) => context.content))
}

/**
 * A call waiting on approval: not a failure, so no provider's error flag is set; its own `content` (one text part
 * saying it awaits approval) is what the model reads in the result's place.
 */
export function isPending(result: DeferredToolResult): result is ToolPending {
  return result.status === 'pending'
}

/** Parts every provider renderer handles: text and images; anything else becomes its fallback text. */
export function asTextOrImage(parts: readonly ContentPart[]): (TextPart | ImagePart)[] {
  return parts.map((part) =>
    part.type === 'text' || part.type === 'image' ? part : { type: 'text', text: contentFallbackText(part) },
  )
}

/** For APIs that also take audio where they take images: text, images and audio; the rest as fallback text. */
export function asTextOrMedia(parts: readonly ContentPart[]): (TextPart | ImagePart | AudioPart)[] {
  return parts.map((part) =>
    part.type === 'text' || part.type === 'image' || part.type === 'audio'
      ? part
      : { type: 'text', text: contentFallbackText(part) },
  )
}

export function dataUrl(image: ImagePart | AudioPart): string {
  return `data:${image.mimeType};base64,${image.data}`
}

/** The text a provider without image support in that position reads instead of the image. */
export function imagePlaceholder(image: ImagePart, where: string): string {
  return `[image (${image.mimeType}) ${where}]`
}

export function joinText(parts: readonly string[]): string {
  return parts.join('\n\n')
}

/** A result as read back from a provider message: what the model was shown, and the error flag where the format has one. */
export interface ProviderResultView {
  readonly id: string
  readonly isError: boolean | undefined
  readonly content: readonly ContentPart[]
}

/** Parses a base64 `data:` URL back into an image part; undefined for anything else. */
export function imageFromDataUrl(url: string): ImagePart | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url)
  return match?.[1] === undefined || match[2] === undefined
    ? undefined
    : { type: 'image', mimeType: match[1], data: match[2] }
}
