import { brandError } from './brand.js'

/**
 * A caller passed a value the function cannot use (an option out of range, a listener that is not a function, a
 * malformed filter). A `TypeError`, as before it was branded, so `instanceof TypeError` still holds.
 */
export class InvalidArgumentError extends TypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'InvalidArgumentError'
  }
}

/** Recognises an InvalidArgumentError from any copy of this package or realm. */
export const isInvalidArgumentError = brandError(InvalidArgumentError, 'InvalidArgumentError')
