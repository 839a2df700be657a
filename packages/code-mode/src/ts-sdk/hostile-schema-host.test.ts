import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { childHostReport } from '../../../../test/support/child-host.js'
import type { SchemaHostReport, SchemaHostScenario } from './__fixtures__/schema-host.js'

const host = fileURLToPath(new URL('./__fixtures__/schema-host.ts', import.meta.url))
/** Issue 14's bar: the host's own work never holds the event loop this long. */
const MAX_LAG_MS = 100
/** Wall-clock lag also counts time other processes on the two shared cores kept this one waiting. */
const MAX_WALL_LAG_MS = 1_000
const MAX_RSS_GROWTH_MB = 50
/** No projection or rendering of one tool may take longer. */
const MAX_TOOL_MS = 1_000

/**
 * Runs one scenario in its own process with a 512 MB heap: before the budgets, the fan-out alone took 895 MB
 * and threw `RangeError: Invalid string length` out of `prompt()`, and a 20-level Gemini fan-out took 53 s.
 */
function runHost(scenario: SchemaHostScenario): Promise<SchemaHostReport> {
  return childHostReport<SchemaHostReport>(scenario, host, [scenario], {
    nodeFlags: ['--expose-gc', '--no-node-snapshot', '--max-old-space-size=512'],
    timeoutMs: 40_000,
  })
}

/** The host survived, stayed responsive and gave its memory back; returns what the scenario found. */
async function healthyRun(scenario: SchemaHostScenario): Promise<Record<string, unknown>> {
  const report = await runHost(scenario)
  console.log(
    `${scenario}: lag max ${report.lagMaxMs.toFixed(1)} ms (busy ${report.lagBusyMs.toFixed(1)} ms), RSS ${report.rssBaselineMb.toFixed(0)} -> peak ${report.rssPeakMb.toFixed(0)} -> after ${report.rssAfterMb.toFixed(0)} MB, ${report.elapsedMs.toFixed(0)} ms`,
  )
  expect(report.lagBusyMs).toBeLessThan(MAX_LAG_MS)
  expect(report.lagMaxMs).toBeLessThan(MAX_WALL_LAG_MS)
  expect(report.elapsedMs).toBeLessThan(MAX_TOOL_MS)
  expect(report.rssAfterMb - report.rssBaselineMb).toBeLessThan(MAX_RSS_GROWTH_MB)
  return report.result as Record<string, unknown>
}

const readFileOnly = /declare const tools: \{\n {2}\/\*\* Read a text file\. \*\/\n {2}read_file\(/

describe('a host shown one hostile tool schema', () => {
  it('builds the prompt without a 26-level anyOf/$ref fan-out, reports it, and still runs programs', async () => {
    const result = await healthyRun('prompt-fan-out')
    expect(result.omitted).toEqual([{ name: 'evil', reason: 'rendering it took more than 250000 steps' }])
    expect(result.sdk).toMatch(readFileOnly)
    expect(result.sdk).not.toContain('evil')
    expect(result.run).toEqual({ ok: true, value: 'hello' })
  }, 60_000)

  it('builds the prompt without a tool whose enum has a million values', async () => {
    const result = await healthyRun('prompt-enum')
    expect(result.omitted).toEqual([{ name: 'evil', reason: 'its schema takes more than 524288 bytes' }])
    expect(result.sdk).toMatch(readFileOnly)
    expect(result.run).toEqual({ ok: true, value: 'hello' })
  }, 60_000)

  it('renders the Python SDK of a fan-out in linear work (its $refs are named once), and leaves a huge enum out', async () => {
    const fanOut = await healthyRun('python-fan-out')
    expect(fanOut.omitted).toEqual([])
    expect(fanOut.sdk).toContain('D0 = D1 | list[D1]')
    const hugeEnum = await healthyRun('python-enum')
    expect(hugeEnum.omitted).toEqual([{ name: 'evil', reason: 'its schema takes more than 524288 bytes' }])
  }, 60_000)

  it('projects a 40-level $defs fan-out for Gemini without inlining it: sent as parametersJsonSchema', async () => {
    const [gemini] = (await healthyRun('gemini-fan-out')) as unknown as { statuses: string[][]; bytes: number }[]
    expect(gemini?.statuses).toEqual([
      ['read_file', 'exact', ''],
      ['evil', 'degraded', 'sent as parametersJsonSchema'],
    ])
    expect(gemini?.bytes).toBeLessThan(10_000)
  }, 60_000)

  it('projects the same fan-out for every provider in bounded work', async () => {
    const projections = (await healthyRun('providers-fan-out')) as unknown as { bytes: number }[]
    for (const projection of projections) expect(projection.bytes).toBeLessThan(10_000)
  }, 60_000)

  it('leaves a million-value enum out of every provider projection, alone, and says why', async () => {
    const projections = (await healthyRun('providers-enum')) as unknown as { provider: string; statuses: string[][] }[]
    for (const projection of projections) {
      expect(projection.statuses[1]).toEqual(['evil', 'omitted', 'left out: its schema takes more than 131072 bytes'])
      expect(projection.statuses[0]?.[1]).not.toBe('omitted')
    }
  }, 60_000)
})
