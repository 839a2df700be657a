import { brandError } from './brand.js'

/**
 * A runtime used in a way its state does not allow: a name registered twice or reserved, a mode that needs a
 * PTC runtime it was not given, a closed runtime called again.
 */
export class ToolRuntimeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'ToolRuntimeError'
  }
}

/** Recognises a ToolRuntimeError from any copy of this package or realm. */
export const isToolRuntimeError = brandError(ToolRuntimeError, 'ToolRuntimeError')
