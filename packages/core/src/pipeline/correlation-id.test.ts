import { describe, expect, it } from 'vitest'
import { mintCorrelationId } from './correlation-id.js'

describe('mintCorrelationId', () => {
  it('mints a distinct token per call across thousands boundaries, all with the process prefix', () => {
    const tokens = Array.from({ length: 2500 }, () => mintCorrelationId())
    expect(new Set(tokens).size).toBe(tokens.length)
    const prefix = tokens[0]!.replace(/\d+$/, '')
    expect(prefix).toMatch(/^tc-[0-9a-f]{8}-$/)
    for (const token of tokens) expect(token).toMatch(/^tc-[0-9a-f]{8}-[1-9]\d{3,}$/)
    // The counter reads as one decimal number that goes up by one per call.
    const counters = tokens.map((token) => Number(token.slice(prefix.length)))
    for (let index = 1; index < counters.length; index++) expect(counters[index]).toBe(counters[index - 1]! + 1)
  })
})
