import { readFileSync } from 'node:fs'

/** The runner's Python files, in the order they join into one script: confinement, then the channel, then the runner. */
export const runnerFileNames = ['runner-confinement.py', 'runner-io.py', 'runner.py'] as const

/** The whole runner as one script. The files sit beside this module; the build copies them into `dist`. */
export const runnerSource: string = runnerFileNames
  .map((name) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8'))
  .join('\n')
