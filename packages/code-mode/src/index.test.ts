import { describe, expect, it } from 'vitest'
import * as codeMode from './index.js'

describe('the @qilin-tools/code-mode entry point', () => {
  it('exports exactly these runtime values', () => {
    expect(Object.keys(codeMode).sort()).toEqual(['PtcFailureKind', 'defaultPtcLimits', 'renderTypeScriptSdk'])
  })

  it('loads no code-mode runtime: neither isolated-vm nor the Python runner', async () => {
    const { spawnSync } = await import('node:child_process')
    const script = [
      "const { createRequire } = await import('node:module')",
      `await import(${JSON.stringify(new URL('./index.ts', import.meta.url).href)})`,
      "const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes('isolated-vm'))",
      'process.stdout.write(JSON.stringify(loaded))',
    ].join('\n')
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual([])
  })
})
