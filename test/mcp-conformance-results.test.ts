import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findScenarioRun, isSelected, tallyScenario } from '../scripts/mcp-conformance/scenario-results.js'

let output: string
afterEach(() => rmSync(output, { recursive: true, force: true }))

/** Saves checks the way the suite does: `<output>/<prefix><scenario>-<ISO time with - for : and .>/checks.json`. */
function save(relativeFolder: string, checks: readonly { id: string; status: string; errorMessage?: string }[]) {
  const folder = join(output, relativeFolder)
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'checks.json'), JSON.stringify(checks))
}

describe('the conformance run finds each scenario’s saved checks', () => {
  it('finds a client scenario whose name holds a slash one folder down, and not a longer name it starts', () => {
    output = mkdtempSync(join(tmpdir(), 'qilin-conformance-test-'))
    save('auth/scope-step-up-2026-12-02T03-50-01-000Z', [{ id: 'a', status: 'SUCCESS' }])
    save('auth/scope-step-up-extra-2026-12-02T03-50-02-000Z', [{ id: 'b', status: 'FAILURE' }])
    save('auth/basic-cimd-2026-12-02T03-50-03-000Z', [
      { id: 'c', status: 'SUCCESS' },
      { id: 'd', status: 'FAILURE', errorMessage: 'no PKCE' },
      { id: 'e', status: 'WARNING' },
    ])
    expect(tallyScenario(output, 'client', 'auth/scope-step-up')).toEqual({ passed: 1, failed: 0 })
    expect(tallyScenario(output, 'client', 'auth/basic-cimd')).toEqual({
      passed: 1,
      failed: 1,
      firstFailure: 'd: no PKCE',
    })
    expect(tallyScenario(output, 'client', 'auth/pre-registration')).toBeUndefined()
    expect(tallyScenario(output, 'client', 'scope-step-up')).toBeUndefined()
  })

  it('finds server scenarios under their server- prefix, and the latest of two runs', () => {
    output = mkdtempSync(join(tmpdir(), 'qilin-conformance-test-'))
    save('server-ping-2026-12-02T03-50-01-000Z', [{ id: 'old', status: 'FAILURE' }])
    save('server-ping-2026-12-02T03-51-01-000Z', [{ id: 'new', status: 'SUCCESS' }])
    save('server-server-initialize-2026-12-02T03-50-01-000Z', [{ id: 'init', status: 'SUCCESS' }])
    expect(tallyScenario(output, 'server', 'ping')).toEqual({ passed: 1, failed: 0 })
    expect(tallyScenario(output, 'server', 'server-initialize')).toEqual({ passed: 1, failed: 0 })
    expect(findScenarioRun(output, 'client', 'ping')).toBeUndefined()
  })

  it('does not leave the output folder for a hostile scenario name', () => {
    output = mkdtempSync(join(tmpdir(), 'qilin-conformance-test-'))
    save('x-2026-12-02T03-50-01-000Z', [{ id: 'outside', status: 'SUCCESS' }])
    expect(findScenarioRun(join(output, 'inner'), 'client', '../x')).toBeUndefined()
  })
})

describe('the conformance run’s scenario filters', () => {
  it.each([
    [[], 'auth/basic-cimd', true],
    [['auth/'], 'auth/basic-cimd', true],
    [['auth/'], 'initialize', false],
    [['auth/basic-cimd'], 'auth/basic-cimd', true],
    [['auth/basic'], 'auth/basic-cimd', false],
    [['ping', 'auth/'], 'ping', true],
  ] as const)('%j selects %s: %s', (filters, scenario, selected) => {
    expect(isSelected(scenario, filters)).toBe(selected)
  })
})
