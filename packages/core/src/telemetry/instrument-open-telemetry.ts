import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import type { ContentPart } from '../definition/content.js'
import type { JsonValue } from '../json-schema/json-value.js'
import type { ToolResult } from '../pipeline/call.js'
import type { ApprovalEvent, PreExecuteEvent, ResultEvent } from '../pipeline/pipeline-events.js'
import type { ToolRuntime } from '../pipeline/tool-runtime.js'
import { createDisposer, type Disposer } from '../registry/disposer.js'
import { type CallSpan, CallSpans } from './call-spans.js'
import { EXECUTE_TOOL, GenAiAttribute, ToolSpanEvent, ToolSpanEventAttribute } from './gen-ai-attributes.js'

/** How `instrumentOpenTelemetry` makes its spans. */
export interface OpenTelemetryOptions {
  /**
   * The tracer the spans come from.
   * @default trace.getTracer('qilin-tools'), the globally registered provider's
   */
  readonly tracer?: Tracer
  /**
   * Record each call's arguments, result text and error message on its span (each cut to 8,192 characters).
   * They may hold what users and tools said; leave it off unless the trace backend may keep that.
   * @default false
   */
  readonly captureContent?: boolean
}

/** Longest content attribute, in UTF-16 units, so one huge argument cannot flood the exporter. */
export const CONTENT_ATTRIBUTE_LIMIT = 8192

/** Before every other listener, so the span covers the whole policy phase. */
const FIRST = -Number.MAX_VALUE
/** Inside every retrying wrapper, so each attempt of the body passes here. */
const INNERMOST = Number.MAX_VALUE

/**
 * Emits one OpenTelemetry span per call this runtime scope runs, per the GenAI conventions for tool execution:
 * `execute_tool <name>`, a child of the caller's active context, or of its `run_code` call's span for a program's
 * sub-call. Approvals and retries are events on it; a failure sets `error.type` to the error code and the status
 * to error. Nothing is installed until this is called; the disposer removes every listener it added.
 */
export function instrumentOpenTelemetry(runtime: ToolRuntime, options: OpenTelemetryOptions = {}): Disposer {
  const tracer = options.tracer ?? trace.getTracer('qilin-tools')
  const capture = options.captureContent === true
  const inFlight = new CallSpans()

  const parentOf = (agentId: string | undefined, parentId: string | undefined): Context => {
    if (parentId === undefined) return context.active()
    return inFlight.program(agentId, parentId)?.context ?? context.active()
  }

  // A listener that threw would deny the call: a broken tracer costs the span, never the call.
  const start = (event: PreExecuteEvent): undefined => {
    try {
      const { call, definition } = event
      const parent = parentOf(call.agentId, call.parentId)
      const attributes = baseAttributes(call.name, call.id, call.agentId, call.parentId)
      attributes[GenAiAttribute.TOOL_DESCRIPTION] = definition.description
      if (capture) attributes[GenAiAttribute.TOOL_CALL_ARGUMENTS] = bounded(JSON.stringify(call.arguments))
      const span = tracer.startSpan(`${EXECUTE_TOOL} ${call.name}`, { kind: SpanKind.INTERNAL, attributes }, parent)
      const entry: CallSpan = {
        call,
        span,
        context: changesContext(span, parent) ? trace.setSpan(parent, span) : undefined,
        attempts: 0,
      }
      inFlight.add(entry)
    } catch {
      // No span for this call; the pipeline's own observers isolate the other listeners.
    }
    return undefined
  }

  const approval = (event: ApprovalEvent): void => {
    const entry = inFlight.of(event.call)
    if (entry === undefined) return
    const decidedAt = Date.now()
    entry.span.addEvent(
      ToolSpanEvent.APPROVAL_REQUESTED,
      { [ToolSpanEventAttribute.REASONS]: event.reasons.map((reason) => bounded(reason)) },
      decidedAt - event.waitedMs,
    )
    const attributes: Attributes = {
      [ToolSpanEventAttribute.VERDICT]: event.verdict,
      [ToolSpanEventAttribute.WAIT_MS]: event.waitedMs,
    }
    if (event.decidedBy !== undefined) attributes[ToolSpanEventAttribute.DECIDED_BY] = event.decidedBy
    if (capture && event.reason !== undefined) attributes[ToolSpanEventAttribute.REASON] = bounded(event.reason)
    entry.span.addEvent(ToolSpanEvent.APPROVAL_DECIDED, attributes, decidedAt)
  }

  const finish = (event: ResultEvent): void => {
    const { result, agentId, parentId, call } = event
    const entry = call === undefined ? undefined : inFlight.of(call)
    if (entry !== undefined) inFlight.remove(entry)
    const span = entry?.span ?? lateSpan(tracer, result, agentId, parentId, parentOf(agentId, parentId))
    if (span.isRecording()) settle(span, result, capture)
    span.end()
  }

  const disposers = [
    runtime.on('tools/pre-execute', start, { order: FIRST }),
    runtime.on(
      'tools/execute',
      (exec, next) => {
        const entry = inFlight.of(exec.call)
        if (entry?.context === undefined) return next()
        entry.attempts++
        if (entry.attempts > 1)
          entry.span.addEvent(ToolSpanEvent.RETRY, { [ToolSpanEventAttribute.ATTEMPT]: entry.attempts })
        return context.with(entry.context, next)
      },
      { order: INNERMOST },
    ),
    runtime.on('tools/approval', approval),
    runtime.on('tools/result', finish),
  ]
  return createDisposer(() => {
    for (const disposer of disposers) disposer.dispose()
    for (const entry of inFlight.drain()) entry.span.end()
  })
}

/**
 * Whether making the span active changes what the body sees. A span that records nothing and carries its parent's
 * span context (the API's no-op tracer, with no SDK registered) does not: the body's active context stays the
 * caller's, as it would be with the span in it, and nothing needs making per call.
 */
function changesContext(span: Span, parent: Context): boolean {
  if (span.isRecording()) return true
  const own = span.spanContext()
  return isSpanContextValid(own) && own !== trace.getSpanContext(parent)
}

function baseAttributes(
  name: string,
  id: string,
  agentId: string | undefined,
  parentId: string | undefined,
): Attributes {
  const attributes: Attributes = {
    [GenAiAttribute.OPERATION_NAME]: EXECUTE_TOOL,
    [GenAiAttribute.TOOL_NAME]: name,
    [GenAiAttribute.TOOL_CALL_ID]: id,
    [GenAiAttribute.TOOL_TYPE]: 'function',
  }
  if (agentId !== undefined) attributes[GenAiAttribute.AGENT_ID] = agentId
  if (parentId !== undefined) attributes[GenAiAttribute.PARENT_CALL_ID] = parentId
  return attributes
}

/** A call refused before any listener saw it (unknown tool, invalid arguments): its span is made when it settles. */
function lateSpan(
  tracer: Tracer,
  result: ToolResult,
  agentId: string | undefined,
  parentId: string | undefined,
  parent: Context,
) {
  const attributes = baseAttributes(result.name, result.id, agentId, parentId)
  const startTime = Date.now() - result.durationMs
  return tracer.startSpan(`${EXECUTE_TOOL} ${result.name}`, { kind: SpanKind.INTERNAL, attributes, startTime }, parent)
}

function settle(span: ReturnType<Tracer['startSpan']>, result: ToolResult, capture: boolean): void {
  const metadata = result.metadata
  if (typeof metadata?.subCalls === 'number') span.setAttribute(GenAiAttribute.SUB_CALLS, metadata.subCalls)
  if (typeof metadata?.bytesKeptOut === 'number')
    span.setAttribute(GenAiAttribute.BYTES_KEPT_OUT, metadata.bytesKeptOut)
  if (result.ok) {
    if (capture) span.setAttribute(GenAiAttribute.TOOL_CALL_RESULT, bounded(contentText(result.content, result.value)))
    return
  }
  span.setAttribute(GenAiAttribute.ERROR_TYPE, result.error.code)
  if (capture) span.setAttribute(GenAiAttribute.ERROR_MESSAGE, bounded(result.error.message))
  span.setStatus({ code: SpanStatusCode.ERROR, message: capture ? bounded(result.error.message) : result.error.code })
}

function contentText(content: readonly ContentPart[], value: JsonValue): string {
  const texts = content.filter((part) => part.type === 'text').map((part) => part.text)
  return texts.length > 0 ? texts.join('\n') : (JSON.stringify(value) ?? '')
}

function bounded(text: string | undefined): string {
  if (text === undefined) return ''
  return text.length <= CONTENT_ATTRIBUTE_LIMIT ? text : `${text.slice(0, CONTENT_ATTRIBUTE_LIMIT)}…`
}
