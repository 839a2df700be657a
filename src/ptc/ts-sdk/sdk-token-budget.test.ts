import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { loadMcpToolset, mcpToolsetNames } from '../__fixtures__/mcp-toolsets.js'
import type { PtcToolView } from '../ptc-port.js'
import { renderTypeScriptSdk } from './render-typescript-sdk.js'

/** The same tools as a provider sends them natively: name, description, parameters (without `$schema`). */
function nativeTokens(tools: readonly PtcToolView[]): number {
  const text = tools
    .map((tool) => {
      const { $schema: _dialect, ...parameters } = tool.parameters
      return JSON.stringify({ name: tool.name, description: tool.description, parameters })
    })
    .join('\n')
  return encode(text).length
}

describe('SDK token budget (o200k), guarding bench/sdk-tokens.bench.ts in CI', () => {
  const counts = mcpToolsetNames().map((name) => {
    const tools = loadMcpToolset(name)
    return { name, native: nativeTokens(tools), sdk: encode(renderTypeScriptSdk(tools)).length }
  })

  // A multi-line description pays one gutter token a line (` * `) so that none of its lines reads as a
  // declaration: sequential-thinking, one tool with a 54-line description, is the one list that comes out larger.
  it.each(counts)('$name: the SDK with result types costs at most 1.1x the native schemas', ({ native, sdk }) => {
    expect(sdk).toBeLessThanOrEqual(native * 1.1)
  })

  it('costs at most 0.8x the native schemas over every list', () => {
    const native = counts.reduce((sum, count) => sum + count.native, 0)
    const sdk = counts.reduce((sum, count) => sum + count.sdk, 0)
    expect(sdk / native).toBeLessThanOrEqual(0.8)
  })
})
