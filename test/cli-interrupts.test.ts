import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTempProject, ensureBuiltCli, type TempProject } from './support/built-cli.js'
import { waitFor } from './support/process-table.js'
import { killStartedClis, startCli } from './support/running-cli.js'

let project: TempProject
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject()
})
afterEach(() => {
  killStartedClis()
  project.dispose()
})

// isolated-vm tears a disposed isolate down on its own thread; exiting by process.exit() meanwhile segfaulted.
describe('Ctrl-C during a busy program', () => {
  it('exits 130 on every one of 50 interrupts in a row, never by a crash', async () => {
    project.write('qilin.config.json', JSON.stringify({ toolkit: true }))
    const runs = 50
    const atOnce = 3
    const outcomes: { run: number; twin: boolean; code: number | null; signal: string | null; stderr: string }[] = []
    const crashes: string[] = []
    const interruptOne = async (run: number) => {
      project.write(
        `busy-${run}.ts`,
        `await tools.write_file({ path: 'started-${run}', content: '' })\nwhile (true) {}`,
      )
      const { child, exited } = startCli(['run', `busy-${run}.ts`], project.directory)
      await waitFor(`run ${run} to be busy`, () => existsSync(join(project.directory, `started-${run}`)))
      // Somewhere in the spin, not at a fixed phase of it.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 150))
      child.kill('SIGINT')
      // Every other run gets the signal twice at once, as `timeout`, `npm run` and `npx` deliver it.
      const twin = run % 2 === 1
      if (twin) child.kill('SIGINT')
      const exit = await exited
      outcomes.push({ run, twin, code: exit.code, signal: exit.signal, stderr: exit.stderr })
      if (/segmentation|core dumped|fatal error/i.test(exit.stderr)) crashes.push(`run ${run}: ${exit.stderr}`)
    }
    for (let first = 0; first < runs; first += atOnce) {
      const batch = Array.from({ length: Math.min(atOnce, runs - first) }, (_, offset) => first + offset)
      await Promise.all(batch.map(interruptOne))
    }
    expect(crashes).toEqual([])
    expect(outcomes).toHaveLength(runs)
    expect(outcomes.filter((outcome) => !outcome.twin && outcome.code !== 130)).toEqual([])
    // A twin the scheduler holds back until the CLI has closed and Node is tearing down meets Node's own handler,
    // which re-raises it: death by SIGINT, which a shell reports as 130 too. Anything else is a failure.
    const twinDeath = (outcome: (typeof outcomes)[number]) =>
      outcome.signal === 'SIGINT' && !outcome.stderr.includes('killing what is left')
    expect(outcomes.filter((outcome) => outcome.twin && outcome.code !== 130 && !twinDeath(outcome))).toEqual([])
  }, 180_000)
})
