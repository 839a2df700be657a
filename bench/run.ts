/**
 * `npm run bench [filter]`: runs every `bench/**\/*.bench.ts` in its own process, one after another,
 * so benches never share a warmed-up heap. Each bench prints its own markdown tables.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'

const root = new URL('.', import.meta.url).pathname
const filter = process.argv[2]

function findBenches(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(directory, entry.name)
      if (entry.isDirectory()) return findBenches(path)
      return entry.name.endsWith('.bench.ts') ? [path] : []
    })
    .sort()
}

const benches = findBenches(root).filter((path) => filter === undefined || path.includes(filter))
if (benches.length === 0) {
  console.error(`no bench matches ${filter ?? '(all)'}`)
  process.exit(1)
}
let failed = 0
for (const bench of benches) {
  console.log(`\n## ${relative(root, bench)}\n`)
  const run = spawnSync(process.execPath, ['--expose-gc', '--no-node-snapshot', '--import', 'tsx', bench], {
    stdio: 'inherit',
  })
  if (run.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
