import { byteLength } from '../definition/byte-length.js'
import { type ContentPart, contentFallbackText, isMediaPart } from '../definition/content.js'
import { ToolErrorCode } from '../errors/error-codes.js'
import type { JsonValue } from '../json-schema/json-value.js'
import type { ToolContext, ToolResult } from '../pipeline/call.js'
import type { PtcFailure } from './failure-kinds.js'
import type { PtcRunMetadata, PtcRunOutcome } from './ptc-port.js'

export const NO_OUTPUT_TEXT = '(run_code completed with no output)'

/** What a finished or failed program left behind, in any language. */
export interface ProgramRecord {
  /** Printed lines, in order. */
  readonly lines: readonly string[]
  /** Every settled sub-call, in settle order. */
  readonly subResults: readonly ToolResult[]
}

/** The returned value as the model reads it: strings raw, everything else as compact JSON. */
export function renderReturnedValue(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** Printed lines then the returned value, or the no-output marker when both are empty. */
export function renderProgramOutput(lines: readonly string[], value: JsonValue | undefined): string {
  const parts = value === undefined ? [...lines] : [...lines, renderReturnedValue(value)]
  const text = parts.join('\n')
  return text === '' ? NO_OUTPUT_TEXT : text
}

/** `code run failed (<kind>): <message>`, then the captured output when there was any. The pipeline adds `Error: `. */
export function renderFailureMessage(failure: PtcFailure, lines: readonly string[]): string {
  const head = `code run failed (${failure.kind}): ${failure.message}`
  return lines.length === 0 ? head : `${head}\nCaptured output:\n${lines.join('\n')}`
}

export function successOutcome(record: ProgramRecord, value: JsonValue | undefined): PtcRunOutcome {
  const content: ContentPart[] = [{ type: 'text', text: renderProgramOutput(record.lines, value) }]
  const contexts = mediaContexts(record.subResults)
  return {
    ok: true,
    content,
    value: value ?? null,
    ...(contexts.length === 0 ? {} : { contexts }),
    metadata: runMetadata(record.subResults, contexts),
  }
}

export function failureOutcome(record: ProgramRecord, failure: PtcFailure): PtcRunOutcome {
  const contexts = mediaContexts(record.subResults)
  return {
    ok: false,
    error: { code: ToolErrorCode.CODE_RUN_FAILED, message: renderFailureMessage(failure, record.lines) },
    ...(contexts.length === 0 ? {} : { contexts }),
    metadata: runMetadata(record.subResults, contexts),
  }
}

/**
 * What a program cannot print (images, audio, binary resources) from successful sub-calls, attached after the outer
 * result with where it came from.
 */
export function mediaContexts(subResults: readonly ToolResult[]): ToolContext[] {
  return subResults.flatMap((result) => {
    if (!result.ok) return []
    const media = result.content.filter(isMediaPart)
    return media.length === 0 ? [] : [{ source: { toolName: result.name, callId: result.id }, content: media }]
  })
}

/** Sub-call count and the bytes of sub-results that stayed out of the conversation. */
export function runMetadata(subResults: readonly ToolResult[], contexts: readonly ToolContext[]): PtcRunMetadata {
  const attached = new Set(contexts.map((context) => context.source?.callId))
  let bytesKeptOut = 0
  for (const result of subResults) {
    for (const part of result.content) {
      if (!isMediaPart(part)) bytesKeptOut += byteLength(contentFallbackText(part))
      else if (!attached.has(result.id))
        bytesKeptOut += byteLength(part.type === 'resource' ? part.resource.blob : part.data)
    }
  }
  return { subCalls: subResults.length, bytesKeptOut }
}
