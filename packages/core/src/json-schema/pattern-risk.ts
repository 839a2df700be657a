/**
 * Every `pattern` runs on the linear-time engine (`linear-regex.ts`), so none can backtrack; matching still costs
 * pattern size times input length, and a pattern may hold up to a thousand-fold repeat. This cap on the string
 * length a pattern is ever run on keeps that product small enough for one validation to stay within milliseconds.
 */
export const PATTERN_INPUT_LIMIT = 4096
