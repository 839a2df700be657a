import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { pendingLayerRows } from './__fixtures__/layer-order/pending-rows.js'
import { repositoryRoot } from './support/built-cli.js'

/** The folder rows of CONTRIBUTING.md's source map, in table order: the bottom layer first. */
function sourceMapLayers(contributing: string): string[] {
  const map = contributing.split(/^## Source map\s*$/m)[1] ?? ''
  const folders: string[] = []
  for (const line of map.split('\n')) {
    const folder = /^\| `(src\/[^`]*\/)`/.exec(line)?.[1]
    if (folder !== undefined) folders.push(folder)
  }
  return folders
}

function withPendingRows(layers: readonly string[], pending: typeof pendingLayerRows): string[] {
  const result = [...layers]
  for (const row of pending) {
    const listed = result.indexOf(row.folder)
    if (listed !== -1 && listed === result.indexOf(row.after) + 1) {
      throw new Error(`CONTRIBUTING.md has ${row.folder} after ${row.after} now: drop it from pending-rows.ts`)
    }
    if (listed !== -1) result.splice(listed, 1)
    const at = result.indexOf(row.after)
    if (at === -1)
      throw new Error(`pending row ${row.folder} goes after ${row.after}, which the source map does not list`)
    result.splice(at + 1, 0, row.folder)
  }
  return result
}

interface SourceFile {
  /** Repository-relative, `/`-separated, e.g. `src/registry/scoped-registry.ts`. */
  readonly path: string
  readonly text: string
}

/** The layer a file sits in: the longest folder row that holds it, or undefined (e.g. `src/index.ts`). */
function layerOf(path: string, layers: readonly string[]): string | undefined {
  let best: string | undefined
  for (const layer of layers)
    if (path.startsWith(layer) && (best === undefined || layer.length > best.length)) best = layer
  return best
}

/** Every relative module a file names: static and type imports, re-exports, `import('…')` and `import type` alike. */
function relativeImports(file: SourceFile): { specifier: string; target: string }[] {
  const { importedFiles } = ts.preProcessFile(file.text, true, true)
  return importedFiles
    .map((reference) => reference.fileName)
    .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'))
    .map((specifier) => ({ specifier, target: posix.normalize(posix.join(posix.dirname(file.path), specifier)) }))
}

/** One line per import that points up the layer order, and per file in a folder no row lists. */
function layerViolations(files: readonly SourceFile[], layers: readonly string[]): string[] {
  const rank = new Map(layers.map((layer, index) => [layer, index]))
  const problems: string[] = []
  for (const file of files) {
    const own = layerOf(file.path, layers)
    if (own === undefined) {
      if (posix.dirname(file.path) !== 'src') problems.push(`${file.path} is in no source-map row`)
      continue
    }
    for (const { specifier, target } of relativeImports(file)) {
      const theirs = layerOf(target, layers)
      if (theirs === undefined) {
        if (posix.dirname(target) === 'src')
          problems.push(`${file.path} (${own}) imports '${specifier}', the package root above every layer`)
        continue
      }
      if (rank.get(theirs)! > rank.get(own)!)
        problems.push(`${file.path} (${own}) imports '${specifier}' from ${theirs}, a layer above its own`)
    }
  }
  return problems
}

function librarySources(): SourceFile[] {
  const files: SourceFile[] = []
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== '__fixtures__' && entry.name !== '__snapshots__') visit(path)
      } else if (/\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files.push({ path: relative(repositoryRoot, path).split(sep).join('/'), text: readFileSync(path, 'utf8') })
      }
    }
  }
  visit(join(repositoryRoot, 'src'))
  return files
}

const layers = withPendingRows(
  sourceMapLayers(readFileSync(join(repositoryRoot, 'CONTRIBUTING.md'), 'utf8')),
  pendingLayerRows,
)

describe('the layer order of the source map', () => {
  it('is read from CONTRIBUTING.md, bottom first', () => {
    expect(layers[0]).toBe('src/errors/')
    expect(layers.at(-1)).toBe('src/cli/')
    expect(layers).toContain('src/ptc/python/')
    expect(layers).toContain('src/sandbox/')
    expect(new Set(layers).size).toBe(layers.length)
    expect(layers.indexOf('src/session-log/')).toBeLessThan(layers.indexOf('src/pipeline/'))
  })

  it('is what the imports of every library file follow', () => {
    const files = librarySources()
    expect(files.length).toBeGreaterThan(100)
    expect(layerViolations(files, layers)).toEqual([])
  })
})

describe('layerViolations', () => {
  const fixtureLayers = ['src/errors/', 'src/registry/', 'src/ptc/', 'src/ptc/python/', 'src/cli/']

  it('names the file, the import and both layers when a file imports a layer above its own', () => {
    const files: SourceFile[] = [
      { path: 'src/registry/scoped-registry.ts', text: "import { run } from '../cli/run-cli.js'\n" },
      { path: 'src/registry/lazy.ts', text: "export const load = () => import('../ptc/python/runner.js')\n" },
      { path: 'src/registry/types.ts', text: "import type { Limits } from '../ptc/ptc-limits.js'\n" },
      { path: 'src/ptc/render.ts', text: "export { spawnRunner } from './python/runner-process.js'\n" },
      { path: 'src/errors/codes.ts', text: "import '../index.js'\n" },
    ]
    expect(layerViolations(files, fixtureLayers)).toEqual([
      "src/registry/scoped-registry.ts (src/registry/) imports '../cli/run-cli.js' from src/cli/, a layer above its own",
      "src/registry/lazy.ts (src/registry/) imports '../ptc/python/runner.js' from src/ptc/python/, a layer above its own",
      "src/registry/types.ts (src/registry/) imports '../ptc/ptc-limits.js' from src/ptc/, a layer above its own",
      "src/ptc/render.ts (src/ptc/) imports './python/runner-process.js' from src/ptc/python/, a layer above its own",
      "src/errors/codes.ts (src/errors/) imports '../index.js', the package root above every layer",
    ])
  })

  it('allows imports down the order, within a layer and from packages', () => {
    const files: SourceFile[] = [
      {
        path: 'src/ptc/python/create.ts',
        text: "import { a } from '../ptc-limits.js'\nimport { b } from './runner.js'\nimport { c } from '../../errors/tool-error.js'\nimport ts from 'typescript'\n",
      },
      { path: 'src/cli/main.ts', text: "import { d } from '../registry/scoped-registry.js'\n" },
      { path: 'src/index.ts', text: "export { e } from './cli/main.js'\n" },
    ]
    expect(layerViolations(files, fixtureLayers)).toEqual([])
  })

  it('names a file in a folder no row lists', () => {
    expect(layerViolations([{ path: 'src/unlisted/thing.ts', text: '' }], fixtureLayers)).toEqual([
      'src/unlisted/thing.ts is in no source-map row',
    ])
  })

  it('places a pending row after the row it names, moving it if listed, and refuses one already in place', () => {
    const sandbox = { folder: 'src/sandbox/', after: 'src/errors/' }
    expect(withPendingRows(['src/errors/', 'src/ptc/'], [sandbox])).toEqual(['src/errors/', 'src/sandbox/', 'src/ptc/'])
    expect(withPendingRows(['src/errors/', 'src/ptc/', 'src/sandbox/'], [sandbox])).toEqual([
      'src/errors/',
      'src/sandbox/',
      'src/ptc/',
    ])
    expect(() => withPendingRows(['src/errors/', 'src/sandbox/'], [sandbox])).toThrow(/drop it from pending-rows/)
    expect(() => withPendingRows(['src/ptc/'], [sandbox])).toThrow(/does not list/)
  })
})
