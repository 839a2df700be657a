import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runnerFiles, runnerSource } from './runner-source.js'

/** The runner's Python files, in the order the host joins them into one script. */
const fileNames = ['runner-confinement.py', 'runner-io.py', 'runner.py'] as const
const moduleFile = new URL('./runner-source.ts', import.meta.url)

/** The module that embeds the runner's Python files, so they ship inside `dist` without a copy step. */
function runnerSourceModule(files: readonly string[]): string {
  for (const text of files)
    if (text.includes('`') || text.includes('${')) throw new Error('runner files must not contain ` or ${')
  const entries = fileNames.map((name, index) => {
    const text = files[index] ?? ''
    return `  ${JSON.stringify(name)}: ${text.includes('\\') ? 'String.raw' : ''}\`${text}\`,`
  })
  return [
    '// Generated from runner-confinement.py, runner-io.py and runner.py by runner-source.test.ts',
    '// (RUNNER_SOURCE_WRITE=1 npx vitest run src/ptc/python/runner-source.test.ts). Do not edit.',
    'export const runnerFiles = {',
    ...entries,
    '} as const',
    '',
    '/** The whole runner as one script: confinement, then the channel, then the program runner. */',
    "export const runnerSource: string = Object.values(runnerFiles).join('\\n')",
    '',
  ].join('\n')
}

describe('runnerSource', () => {
  it('embeds the current runner files', () => {
    const files = fileNames.map((name) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8'))
    if (process.env.RUNNER_SOURCE_WRITE === '1') writeFileSync(moduleFile, runnerSourceModule(files))
    expect(Object.values(runnerFiles), 'runner-source.ts is stale: rerun with RUNNER_SOURCE_WRITE=1').toEqual(files)
    expect(runnerSource).toBe(files.join('\n'))
  })
})
