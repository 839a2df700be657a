// `npm run publint`, part of `npm test`: every workspace package passes publint, and @arethetypeswrong/cli with the
// esm-only profile (node16 from ESM and bundler resolution; the packages are ESM only, so the CommonJS and node10
// resolutions are not checked). A package's `./internal/*.js` pattern is checked through one file it matches.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const bin = (name) => join(root, 'node_modules', '.bin', name)
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

let failed = false
for (const folder of workspaces) {
  const directory = join(root, folder)
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'))
  const publint = spawnSync(bin('publint'), ['run', directory, '--strict'], { encoding: 'utf8' })
  process.stdout.write(publint.stdout)
  if (publint.status !== 0) {
    process.stderr.write(publint.stderr)
    failed = true
  }
  const internal =
    manifest.exports['./internal/*.js'] === undefined ? [] : ['--include-entrypoints', internalSample(directory)]
  const attw = spawnSync(
    bin('attw'),
    ['--pack', directory, '--profile', 'esm-only', '--format', 'ascii', ...internal],
    {
      encoding: 'utf8',
    },
  )
  if (attw.status !== 0) {
    process.stdout.write(attw.stdout + attw.stderr)
    failed = true
  } else console.log(`attw ${manifest.name}: no problems`)
}
if (failed) process.exit(1)

/** One module the `./internal/*.js` pattern reaches: the package's index when it has one, else its first module. */
function internalSample(directory) {
  if (existsSync(join(directory, 'dist', 'index.js'))) return './internal/index.js'
  const first = readdirSync(join(directory, 'dist'))
    .filter((name) => name.endsWith('.js'))
    .sort()[0]
  if (first === undefined) throw new Error(`${directory}/dist has no module: run \`npm run build\` first`)
  return `./internal/${first}`
}
