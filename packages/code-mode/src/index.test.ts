import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as ptc from './index.js'

/** Imports `entry` in a fresh Node and says whether isolated-vm's native addon was mapped into the process. */
function loadsIsolatedVm(entry: string): boolean {
  const url = new URL(entry, import.meta.url).href
  const script = `const { readFileSync } = await import('node:fs')
await import(${JSON.stringify(url)})
process.stdout.write(String(readFileSync('/proc/self/maps', 'utf8').includes('isolated_vm.node')))`
  const run = spawnSync(
    process.execPath,
    ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', cwd: fileURLToPath(new URL('../../..', import.meta.url)), timeout: 30_000 },
  )
  if (run.status !== 0) throw new Error(`importing ${entry} failed: ${run.stderr}`)
  return run.stdout === 'true'
}

describe('@qilin-tools/code-mode', () => {
  it('pins the export list', () => {
    expect(Object.keys(ptc).sort()).toEqual([
      'PtcFailureKind',
      'RUN_CODE_TOOL_NAME',
      'codeModeRuntime',
      'defaultPtcLimits',
      'ptcFailureText',
      'renderTypeScriptSdk',
    ])
  })

  it('names every failure kind the runtimes report, each worded by the table', () => {
    expect(Object.keys(ptc.ptcFailureText).sort()).toEqual(Object.values(ptc.PtcFailureKind).sort())
  })

  it('loads without isolated-vm; the Node runtime entry point, as the control, loads it', () => {
    expect(loadsIsolatedVm('./index.ts')).toBe(false)
    expect(loadsIsolatedVm('../../code-mode-node/src/index.ts')).toBe(true)
  }, 60_000)
})
