import { brandError } from './brand.js'
import type { ToolErrorCode } from './error-codes.js'

/** Structured failure detail. Plain JSON: it is logged, persisted and sent across processes. */
export interface ToolErrorInfo {
  readonly code: ToolErrorCode
  /** What the model reads, after `Error: `. */
  readonly message: string
  /** A reason for a human, shown by host UIs; never put in model content. */
  readonly userMessage?: string
}

/** The one Error subclass: carries a `ToolErrorInfo` where something has to throw. */
export class ToolError extends Error {
  readonly code: ToolErrorCode
  readonly userMessage: string | undefined

  constructor(info: ToolErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options)
    this.name = 'ToolError'
    this.code = info.code
    this.userMessage = info.userMessage
  }

  toInfo(): ToolErrorInfo {
    return this.userMessage === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, userMessage: this.userMessage }
  }
}

/** Recognises a ToolError from any copy of this package or realm. */
export const isToolError = brandError(ToolError, 'ToolError')
