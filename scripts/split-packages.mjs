// The codemod that split `src/` into the workspace packages under `packages/`. It is repeatable: run it after
// merging a branch that still adds or edits files under `src/`, and it moves what is left there and rewrites every
// relative import that now crosses a package boundary. Files already under `packages/` are rewritten in place.
//
//   node scripts/split-packages.mjs            # git mv + rewrite
//   node scripts/split-packages.mjs --dry-run  # print the moves only
//
// Each folder keeps its inner layout (`src/pipeline/x.ts` → `packages/core/src/pipeline/x.ts`), so git's rename
// detection carries edits made elsewhere across the move.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import ts from 'typescript'

const root = new URL('..', import.meta.url).pathname

/** Old folder → new folder, and the npm name of the package the new folder is in. Longest `from` wins. */
export const FOLDERS = [
  // A file moved on its own, ahead of its folder: the providers' render budget sits in the core.
  { from: 'src/ptc/render-budget.ts', to: 'packages/core/src/providers/render-budget.ts', name: 'qilin-tools' },
  {
    from: 'src/ptc/render-budget.test.ts',
    to: 'packages/core/src/providers/render-budget.test.ts',
    name: 'qilin-tools',
  },
  { from: 'src/sandbox/', to: 'packages/sandbox/src/', name: '@qilin-tools/sandbox' },
  { from: 'src/ptc/node/', to: 'packages/code-mode-node/src/', name: '@qilin-tools/code-mode-node' },
  { from: 'src/ptc/python/', to: 'packages/code-mode-python/src/', name: '@qilin-tools/code-mode-python' },
  { from: 'src/ptc/', to: 'packages/code-mode/src/', name: '@qilin-tools/code-mode' },
  { from: 'src/mcp/', to: 'packages/mcp/src/', name: '@qilin-tools/mcp' },
  { from: 'src/toolkit/', to: 'packages/toolkit/src/', name: '@qilin-tools/toolkit' },
  { from: 'src/cli/', to: 'packages/cli/src/', name: '@qilin-tools/cli' },
  // Everything else under src/ is the core: errors … providers, and telemetry/ and tool-search/ when they arrive.
  { from: 'src/', to: 'packages/core/src/', name: 'qilin-tools' },
]

/** A public entry point is imported by its package specifier, from any other package and from outside. */
const ENTRY_POINTS = {
  'packages/core/src/index.ts': 'qilin-tools',
  'packages/core/src/providers/index.ts': 'qilin-tools/providers',
  'packages/core/src/providers/ai-sdk/index.ts': 'qilin-tools/providers/ai-sdk',
  'packages/core/src/telemetry/index.ts': 'qilin-tools/opentelemetry',
}

/** A module path without its extension: a specifier names `x.js` for the file `x.ts`. */
const stem = (path) => path.replace(/\.(ts|js|mts|mjs)$/, '')

const byLength = (key) => [...FOLDERS].sort((a, b) => b[key].length - a[key].length)
const forwardOrder = byLength('from')
const inverseOrder = byLength('to')

/** Where a repository path lives after the split (paths outside `src/` stay where they are). */
export function forward(path) {
  for (const row of forwardOrder) {
    if (row.from.endsWith('/')) {
      if (path.startsWith(row.from)) return row.to + path.slice(row.from.length)
    } else if (stem(path) === stem(row.from)) return stem(row.to) + path.slice(stem(path).length)
  }
  return path
}

/** Where a path under `packages/` came from, to read its imports as they were written. */
export function inverse(path) {
  for (const row of inverseOrder) {
    if (row.to.endsWith('/')) {
      if (path.startsWith(row.to)) return row.from + path.slice(row.to.length)
    } else if (stem(path) === stem(row.to)) return stem(row.from) + path.slice(stem(path).length)
  }
  return path
}

/** The package row (`packages/x/src/`) a path is in, or undefined outside every package. */
function packageOf(path) {
  const match = /^packages\/[^/]+\/src\//.exec(path)
  if (match === null) return undefined
  const row = FOLDERS.find((candidate) => candidate.to === match[0])
  if (row !== undefined) return row
  return FOLDERS.find((candidate) => candidate.to.startsWith(match[0]))
}

function relativeSpecifier(fromFile, target) {
  let specifier = posix.relative(posix.dirname(fromFile), target)
  if (!specifier.startsWith('.')) specifier = `./${specifier}`
  return specifier
}

/** The specifier `importer` (at its new path) uses for `target` (new path). */
function specifierFor(importer, target) {
  const own = packageOf(importer)
  const theirs = packageOf(target)
  if (theirs === undefined || own?.name === theirs.name) {
    return relativeSpecifier(importer, target)
  }
  const entry = ENTRY_POINTS[target.replace(/\.js$/, '.ts')] ?? entryPointOfPackage(target)
  if (entry !== undefined) return entry
  const packageRoot = /^packages\/[^/]+\/src\//.exec(target)[0]
  return `${theirs.name}/internal/${target.slice(packageRoot.length)}`
}

/** `packages/mcp/src/index.js` → `@qilin-tools/mcp`: a package's main entry point. */
function entryPointOfPackage(target) {
  const match = /^(packages\/[^/]+\/src\/)index\.(js|ts)$/.exec(target)
  if (match === null) return undefined
  return packageOf(target)?.name
}

function git(...args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' })
}

const dryRun = process.argv.includes('--dry-run')

// 1. Move every tracked file still under src/.
const moved = new Map()
for (const file of git('ls-files', '-z', 'src').split('\0').filter(Boolean)) {
  if (!existsSync(join(root, file))) continue
  const destination = forward(file)
  moved.set(destination, file)
  if (dryRun) {
    console.log(`${file} → ${destination}`)
    continue
  }
  mkdirSync(dirname(join(root, destination)), { recursive: true })
  git('mv', file, destination)
}
if (dryRun) process.exit(0)

// 2. Rewrite relative module specifiers and `new URL('…', import.meta.url)` in every source file.
const sourceExtension = /\.(ts|mts|mjs|js)$/
const rewritable = git('ls-files', '-z', 'packages', 'test', 'bench', 'examples', 'scripts')
  .split('\0')
  .filter((file) => sourceExtension.test(file) && !file.endsWith('.d.ts') && file !== 'scripts/split-packages.mjs')
  .filter((file) => existsSync(join(root, file)))

/** Whether a specifier's target is on disk: `x.js` may be the source `x.ts`; a folder counts. */
function targetExists(path) {
  const absolute = join(root, path)
  if (existsSync(absolute)) return true
  return ['.ts', '.mts', '.d.ts'].some((extension) => existsSync(join(root, stem(path) + extension)))
}

const warnings = []
const touched = []
let rewrittenFiles = 0
for (const file of rewritable) {
  const written = moved.get(file) ?? inverse(file)
  const text = readFileSync(join(root, file), 'utf8')
  const edits = []
  const consider = (start, end, specifier, kind) => {
    if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') return
    // A file moved earlier names its targets from where it is now; only a target missing there (an import written,
    // on another branch, for the old layout) is read from where the file was.
    if (!moved.has(file) && targetExists(posix.join(posix.dirname(file), specifier))) return
    const target = posix.normalize(posix.join(posix.dirname(written), specifier))
    if (kind === 'url' && (target.startsWith('dist/') || target === 'package.json')) {
      warnings.push(`${file}: new URL('${specifier}') names ${target}, which the split changes: edit it by hand`)
      return
    }
    const movedTarget = forward(target)
    if (written === file && movedTarget === target) return
    let replacement = kind === 'url' ? relativeSpecifier(file, movedTarget) : specifierFor(file, movedTarget)
    if (specifier.endsWith('/') && !replacement.endsWith('/')) replacement += '/'
    if (replacement !== specifier) edits.push({ start, end, replacement })
  }
  for (const reference of ts.preProcessFile(text, true, true).importedFiles) {
    // preProcessFile's span may or may not take in the opening quote.
    const start = /['"`]/.test(text[reference.pos] ?? '') ? reference.pos + 1 : reference.pos
    if (text.slice(start, start + reference.fileName.length) !== reference.fileName) {
      warnings.push(`${file}: could not place the specifier '${reference.fileName}'`)
      continue
    }
    consider(start, start + reference.fileName.length, reference.fileName, 'module')
  }
  for (const match of text.matchAll(/new URL\((['"])([^'"]+)\1,\s*import\.meta\.url\)/g)) {
    const start = match.index + match[0].indexOf(match[2])
    consider(start, start + match[2].length, match[2], 'url')
  }
  if (edits.length === 0) continue
  edits.sort((a, b) => b.start - a.start)
  let result = text
  for (const edit of edits) result = result.slice(0, edit.start) + edit.replacement + result.slice(edit.end)
  writeFileSync(join(root, file), result)
  touched.push(file)
  rewrittenFiles++
}

// 3. Paths named as text: the source-map rows in CONTRIBUTING.md, typedoc entry points, doc-generator inputs.
const pathLiteral = /(['"`])(src\/[A-Za-z0-9_./-]*)\1/g
// The layer-order and source-map tests hold made-up paths as fixtures; they are edited by hand.
const handEdited = new Set(['test/layer-order.test.ts', 'test/contributing-source-map.test.ts'])
const named = rewritable.filter((path) => !path.startsWith('packages/') && !handEdited.has(path))
for (const file of ['CONTRIBUTING.md', 'typedoc.json', ...named]) {
  const text = readFileSync(join(root, file), 'utf8')
  const result = text.replace(pathLiteral, (whole, quote, path) => {
    const exists = existsSync(join(root, forward(path))) && path !== 'src/'
    return exists || file === 'CONTRIBUTING.md' ? `${quote}${forward(path)}${quote}` : whole
  })
  if (result !== text) {
    writeFileSync(join(root, file), result)
    rewrittenFiles++
  }
}

// 4. Sorted imports and wrapped lines, as Biome wants them (a specifier's new length can move a line break).
try {
  execFileSync('npx', ['biome', 'check', '--write', '--no-errors-on-unmatched', ...touched], {
    cwd: root,
    stdio: 'ignore',
  })
} catch {
  warnings.push(
    'biome check --write reported problems in the rewritten files: run `npx biome check packages test bench`',
  )
}

console.log(`moved ${moved.size} files, rewrote ${rewrittenFiles}`)
for (const warning of warnings) console.warn(warning)
