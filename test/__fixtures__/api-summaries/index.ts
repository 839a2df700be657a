// An entry point for test/api-summaries.test.ts: some exports carry a summary, some do not.
export { describedFunction, undescribedFunction } from './functions.js'
export type { DescribedShape, UndescribedShape } from './shapes.js'

/** A value declared in the entry point itself, with its summary. */
export const describedValue = 1

export const undescribedValue = 2

/** The value half of a name that is a value and a type. */
export const Pair = { left: 'left', right: 'right' } as const
export type Pair = (typeof Pair)[keyof typeof Pair]

/**
 * @deprecated tags alone are no summary.
 */
export const taggedOnly = 3
