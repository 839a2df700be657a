/** Counts o200k tokens; text that looks like a special token counts as ordinary text. */
export type TokenCounter = (text: string) => number

/** Loaded on demand: the encoder's tables take over 100 ms to import, which `run` without `--json` never pays. */
export async function loadTokenCounter(): Promise<TokenCounter> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base')
  const options = { disallowedSpecial: new Set<string>() }
  return (text) => countTokens(text, options)
}
