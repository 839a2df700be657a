import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runChildHost } from '../../../test/support/child-host.js'
import type { HostileOutcome, HostileReport, HostileScenario } from './__fixtures__/hostile-host.js'

const host = fileURLToPath(new URL('./__fixtures__/hostile-host.ts', import.meta.url))
/** Issue 14's bar for a host under one hostile file: the host's own work never holds the event loop this long. */
const MAX_LAG_MS = 100
/**
 * Wall-clock lag also counts time the machine's other processes kept this one off the cores (the suite shares two
 * cores with everything else), so it is held to a bound only a stall of the host's own making would cross.
 */
const MAX_WALL_LAG_MS = 1_000
const MAX_RSS_GROWTH_MB = 50

/** Runs one scenario in its own process (a fatal V8 error there must not take the test worker with it). */
function runHost(scenario: HostileScenario) {
  return runChildHost<HostileReport>(host, [scenario], {
    nodeFlags: ['--expose-gc', '--max-old-space-size=512'],
    timeoutMs: 40_000,
  })
}

/** The host survived, stayed responsive and gave its memory back; returns the outcomes by label. */
async function healthyRun(scenario: HostileScenario): Promise<Record<string, HostileOutcome>> {
  const run = await runHost(scenario)
  expect({ code: run.code, signal: run.signal, stderr: run.stderr.slice(0, 2000) }).toEqual({
    code: 0,
    signal: null,
    stderr: '',
  })
  const report = run.report
  if (report === undefined) throw new Error(`${scenario}: the host printed no report`)
  console.log(
    `${scenario}: lag max ${report.lagMaxMs.toFixed(1)} ms (busy ${report.lagBusyMs.toFixed(1)} ms), RSS ${report.rssBaselineMb.toFixed(0)} -> peak ${report.rssPeakMb.toFixed(0)} -> after ${report.rssAfterMb.toFixed(0)} MB, ${report.elapsedMs.toFixed(0)} ms`,
  )
  expect(report.outcomes.filter((outcome) => outcome.state === 'pending')).toEqual([])
  expect(report.lagBusyMs).toBeLessThan(MAX_LAG_MS)
  expect(report.lagMaxMs).toBeLessThan(MAX_WALL_LAG_MS)
  expect(report.rssAfterMb - report.rssBaselineMb).toBeLessThan(MAX_RSS_GROWTH_MB)
  return Object.fromEntries(report.outcomes.map((outcome) => [outcome.label, outcome]))
}

describe('a host under one hostile file', () => {
  it('refuses the edit that would inflate a file past the limit, instead of dying in String#split', async () => {
    const outcomes = await healthyRun('inflate')
    expect(outcomes['edit 4']?.state).toBe('ok')
    expect(outcomes['edit 5']).toMatchObject({
      state: 'failed',
      detail: expect.stringMatching(
        /^TOOL_ERROR: edit_file would make "grow.txt" 33554432 bytes, over the 10485760 byte limit/,
      ),
    })
    expect(outcomes['edit 6']).toBeUndefined()
  }, 60_000)

  it('refuses a named pipe at once on every path, and the host keeps reading its own files', async () => {
    const outcomes = await healthyRun('fifo')
    for (const label of ['read 1', 'read 2', 'read 3', 'read 4', 'grep file', 'edit', 'write']) {
      expect(outcomes[label]).toMatchObject({
        state: 'failed',
        detail: expect.stringContaining('"pipe" is a named pipe (FIFO), not a regular file'),
      })
    }
    expect(outcomes['grep directory']).toMatchObject({ state: 'ok', detail: expect.stringContaining('other.txt') })
    expect(outcomes['host fs read']?.ms).toBeLessThan(1_000)
  }, 60_000)

  it('refuses a 1.5 GB file by its size before reading a byte of it', async () => {
    const outcomes = await healthyRun('huge')
    for (const label of ['read 1', 'read 2', 'edit']) {
      expect(outcomes[label]).toMatchObject({
        state: 'failed',
        detail: expect.stringMatching(/"big\.log" is 1610612736 bytes, over the 10485760 byte limit/),
      })
    }
    expect(outcomes['grep file']).toMatchObject({
      state: 'failed',
      detail: expect.stringMatching(
        /"big\.log" is 1610612736 bytes, over the 5242880 byte limit; grep cannot search files this large/,
      ),
    })
    expect(outcomes['grep directory']).toMatchObject({ state: 'ok', detail: expect.stringContaining('other.txt') })
    expect(outcomes['host fs read']?.ms).toBeLessThan(1_000)
  }, 60_000)

  it('reads, greps and edits files of nothing but line breaks without stalling other work', async () => {
    const outcomes = await healthyRun('lines')
    expect(outcomes['read middle']).toMatchObject({
      state: 'ok',
      detail: expect.stringContaining('"totalLines":10485759'),
    })
    expect(outcomes['grep no match']).toMatchObject({
      state: 'ok',
      detail: expect.stringContaining('"filesSearched":1'),
    })
    expect(outcomes['grep context']).toMatchObject({ state: 'ok' })
    expect(outcomes['edit every line']).toMatchObject({ state: 'ok', detail: expect.stringContaining('10485759') })
  }, 60_000)
})
