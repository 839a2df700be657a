import { describe, expect, it } from 'vitest'
import { MAX_PRINTED_LOG_LINES, mcpLogPrinter } from './mcp-log-printer.js'

describe('mcpLogPrinter', () => {
  it('prints info and above as one line each with its server and logger, and leaves debug out', () => {
    const lines: string[] = []
    const print = mcpLogPrinter((line) => lines.push(line))
    print({ server: 'everything', level: 'debug', data: 'noise' })
    print({ server: 'everything', level: 'warning', logger: 'disk', data: { free: 3 } })
    print({ server: 'everything', level: 'info', data: 'line one\nline two' })
    expect(lines).toEqual(['[everything/disk] warning: {"free":3}', '[everything] info: line one line two'])
  })

  it('bounds a flood: each line cut, and past the limit one line says the rest are not shown', () => {
    const lines: string[] = []
    const print = mcpLogPrinter((line) => lines.push(line))
    for (let index = 0; index < 10_000; index++) print({ server: 's', level: 'error', data: 'x'.repeat(100_000) })
    expect(lines).toHaveLength(MAX_PRINTED_LOG_LINES + 1)
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(300)
    expect(lines.at(-1)).toBe(`further log messages of MCP servers are not shown (${MAX_PRINTED_LOG_LINES} were)`)
  })
})
