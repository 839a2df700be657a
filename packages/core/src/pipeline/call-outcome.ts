import type { ContentPart } from '../definition/content.js'
import type { ToolErrorCode } from '../errors/error-codes.js'
import { thrownMessage } from '../errors/thrown-message.js'
import { isToolError, type ToolErrorInfo } from '../errors/tool-error.js'
import type { CallOutcome } from './call.js'

export function failure(code: ToolErrorCode, message: string, userMessage?: string): CallOutcome {
  const error: ToolErrorInfo = userMessage === undefined ? { code, message } : { code, message, userMessage }
  return { ok: false, error }
}

/** The one shape a failure takes in model content: a single text part, no structured detail. */
export function failureContent(error: ToolErrorInfo): readonly ContentPart[] {
  return Object.freeze([Object.freeze({ type: 'text' as const, text: `Error: ${error.message}` })])
}

export { thrownMessage }

/** A thrown `ToolError` keeps its own code; anything else becomes `fallback`. */
export function failureFromThrown(thrown: unknown, fallback: ToolErrorCode): CallOutcome {
  if (isToolError(thrown)) return { ok: false, error: thrown.toInfo() }
  return failure(fallback, thrownMessage(thrown))
}

export function isPromiseLike<Value>(value: Value | PromiseLike<Value>): value is PromiseLike<Value> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}
