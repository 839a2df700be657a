/**
 * How both code-mode runtimes word a sub-call whose arguments pass `PtcLimits.maxArgumentBytes`, as the model
 * reads it. The TypeScript prelude, which cannot import, spells the same text inside the isolate.
 */
export function argumentsTooLarge(maxArgumentBytes: number): string {
  return `tool arguments are larger than ${maxArgumentBytes} bytes`
}
