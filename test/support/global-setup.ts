import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SKIP_NOTES } from './system-requirement.js'

/** Collects the suites skipped for a missing system part and prints them as one line at the end of the run. */
export default function setup(): () => void {
  const directory = mkdtempSync(join(tmpdir(), 'qilin-skips-'))
  const notes = join(directory, 'notes.jsonl')
  process.env[SKIP_NOTES] = notes
  return () => {
    let text = ''
    try {
      text = readFileSync(notes, 'utf8')
    } catch {
      // nothing was skipped
    }
    rmSync(directory, { recursive: true, force: true })
    const skipped = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { name: string; suite: string; install: string })
    if (skipped.length === 0) return
    const suites = [...new Set(skipped.map((note) => note.suite))].sort()
    const installs = [...new Set(skipped.map((note) => note.install))]
    const names = [...new Set(skipped.map((note) => note.name))].join(', ')
    process.stdout.write(
      `\nSkipped ${suites.length} suite(s) that need ${names} (${suites.join(', ')}); to run them: ${installs.join(' && ')}\n`,
    )
  }
}
