import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runnerFileNames, runnerSource } from './runner-source.js'

describe('runnerSource', () => {
  it('joins the runner files, confinement first', () => {
    const files = runnerFileNames.map((name) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8'))
    expect(runnerSource).toBe(files.join('\n'))
    expect(runnerSource.startsWith(files[0]!)).toBe(true)
  })

  it('ships in dist: the built module finds the runner files beside it', () => {
    const built = new URL('../dist/runner-source.js', import.meta.url).href
    const script = `import(${JSON.stringify(built)}).then((module) => process.stdout.write(module.runnerSource))`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe(runnerSource)
  })
})
