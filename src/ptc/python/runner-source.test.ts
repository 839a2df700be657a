import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runnerSource } from './runner-source.js'

const pythonFile = new URL('./runner.py', import.meta.url)
const moduleFile = new URL('./runner-source.ts', import.meta.url)

/** The module that embeds `runner.py`, so the runner ships inside `dist` without a copy step. */
function runnerSourceModule(python: string): string {
  if (python.includes('`') || python.includes('${')) throw new Error('runner.py must not contain ` or ${')
  return `// Generated from runner.py by runner-source.test.ts (RUNNER_SOURCE_WRITE=1 npx vitest run src/ptc/python/runner-source.test.ts). Do not edit.\nexport const runnerSource: string = String.raw\`${python}\`\n`
}

describe('runnerSource', () => {
  it('is the current runner.py', () => {
    const python = readFileSync(pythonFile, 'utf8')
    if (process.env.RUNNER_SOURCE_WRITE === '1') writeFileSync(moduleFile, runnerSourceModule(python))
    expect(runnerSource, 'runner-source.ts is stale: rerun with RUNNER_SOURCE_WRITE=1').toBe(python)
  })
})
