import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { workspacePackages } from '../scripts/workspace-packages.js'
import { pendingLayerRows } from './__fixtures__/layer-order/pending-rows.js'
import { repositoryRoot } from './support/built-cli.js'

/** The folder rows of CONTRIBUTING.md's source map, in table order: the bottom layer first. */
function sourceMapLayers(contributing: string): string[] {
  const map = contributing.split(/^## Source map\s*$/m)[1] ?? ''
  const folders: string[] = []
  for (const line of map.split('\n')) {
    const folder = /^\| `(packages\/[^`]*\/)`/.exec(line)?.[1]
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
  /** Repository-relative, `/`-separated, e.g. `packages/core/src/registry/scoped-registry.ts`. */
  readonly path: string
  readonly text: string
}

/** How package specifiers name files: `qilin-tools/internal/` → `packages/core/src/`, `@qilin-tools/mcp` → its index. */
interface PackageSpecifiers {
  /** Specifier prefix (`qilin-tools/internal/`) → folder (`packages/core/src/`). */
  readonly internal: ReadonlyMap<string, string>
  /** Entry-point specifier (`qilin-tools/providers`) → file (`packages/core/src/providers/index.ts`). */
  readonly entryPoints: ReadonlyMap<string, string>
}

/** The layer a file sits in: the longest folder row that holds it, or undefined (e.g. `packages/core/src/index.ts`). */
function layerOf(path: string, layers: readonly string[]): string | undefined {
  let best: string | undefined
  for (const layer of layers)
    if (path.startsWith(layer) && (best === undefined || layer.length > best.length)) best = layer
  return best
}

/** `packages/core/src/` for any path under it: the source root of the package a path is in. */
function packageSourceRoot(path: string): string | undefined {
  return /^packages\/[^/]+\/src\//.exec(path)?.[0]
}

/** The repository file a specifier names, or undefined for a module outside the workspace (`typescript`, `node:fs`). */
function resolveSpecifier(file: SourceFile, specifier: string, packages: PackageSpecifiers): string | undefined {
  if (specifier.startsWith('./') || specifier.startsWith('../'))
    return posix.normalize(posix.join(posix.dirname(file.path), specifier))
  const entry = packages.entryPoints.get(specifier)
  if (entry !== undefined) return entry
  for (const [prefix, folder] of packages.internal)
    if (specifier.startsWith(prefix)) return folder + specifier.slice(prefix.length)
  return undefined
}

/** Every module a file names: static and type imports, re-exports, `import('…')` and `import type` alike. */
function moduleImports(file: SourceFile, packages: PackageSpecifiers): { specifier: string; target: string }[] {
  const { importedFiles } = ts.preProcessFile(file.text, true, true)
  return importedFiles.flatMap(({ fileName: specifier }) => {
    const target = resolveSpecifier(file, specifier, packages)
    return target === undefined ? [] : [{ specifier, target }]
  })
}

/** One line per import that points up the layer order, and per file in a folder no row lists. */
function layerViolations(
  files: readonly SourceFile[],
  layers: readonly string[],
  packages: PackageSpecifiers,
): string[] {
  const rank = new Map(layers.map((layer, index) => [layer, index]))
  /** A package's entry point outside every row ranks with the package's top row. */
  const topRank = (sourceRoot: string) =>
    Math.max(-1, ...layers.filter((layer) => layer.startsWith(sourceRoot)).map((layer) => rank.get(layer)!))
  const problems: string[] = []
  for (const file of files) {
    const own = layerOf(file.path, layers)
    if (own === undefined) {
      if (`${posix.dirname(file.path)}/` !== packageSourceRoot(file.path))
        problems.push(`${file.path} is in no source-map row`)
      continue
    }
    for (const { specifier, target } of moduleImports(file, packages)) {
      const theirs = layerOf(target, layers)
      if (theirs === undefined) {
        const root = packageSourceRoot(target)
        if (root === undefined || `${posix.dirname(target)}/` !== root) continue
        if (root === packageSourceRoot(file.path))
          problems.push(`${file.path} (${own}) imports '${specifier}', the package root above every layer`)
        else if (topRank(root) > rank.get(own)!)
          problems.push(`${file.path} (${own}) imports '${specifier}', the root of a package above its own`)
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
  const packages = join(repositoryRoot, 'packages')
  for (const name of readdirSync(packages)) visit(join(packages, name, 'src'))
  return files
}

/** The specifiers of the workspace packages, read from their package.json files. */
function workspaceSpecifiers(): PackageSpecifiers {
  const internal = new Map<string, string>()
  const entryPoints = new Map<string, string>()
  for (const workspace of workspacePackages()) {
    const sourceRoot = `${relative(repositoryRoot, workspace.directory).split(sep).join('/')}/src/`
    internal.set(`${workspace.name}/internal/`, sourceRoot)
    for (const entry of workspace.entryPoints)
      entryPoints.set(entry.specifier, relative(repositoryRoot, entry.source).split(sep).join('/'))
  }
  return { internal, entryPoints }
}

const layers = withPendingRows(
  sourceMapLayers(readFileSync(join(repositoryRoot, 'CONTRIBUTING.md'), 'utf8')),
  pendingLayerRows,
)

describe('the layer order of the source map', () => {
  it('is read from CONTRIBUTING.md, bottom first', () => {
    expect(layers[0]).toBe('packages/core/src/errors/')
    expect(layers.at(-1)).toBe('packages/cli/src/')
    expect(layers).toContain('packages/code-mode-python/src/')
    expect(layers).toContain('packages/sandbox/src/')
    expect(new Set(layers).size).toBe(layers.length)
    expect(layers.indexOf('packages/core/src/session-log/')).toBeLessThan(layers.indexOf('packages/core/src/pipeline/'))
  })

  it('is what the imports of every library file follow, relative or by package specifier', () => {
    const files = librarySources()
    expect(files.length).toBeGreaterThan(100)
    expect(layerViolations(files, layers, workspaceSpecifiers())).toEqual([])
  })

  it('keeps each package above every package it imports: the core imports none', () => {
    const core = librarySources().filter((file) => file.path.startsWith('packages/core/'))
    const imported = core.flatMap((file) =>
      ts.preProcessFile(file.text, true, true).importedFiles.map((reference) => `${file.path}: ${reference.fileName}`),
    )
    expect(imported.filter((line) => /: @qilin-tools\//.test(line))).toEqual([])
  })
})

describe('layerViolations', () => {
  const fixtureLayers = [
    'packages/core/src/errors/',
    'packages/core/src/registry/',
    'packages/code-mode/src/',
    'packages/code-mode-python/src/',
    'packages/cli/src/',
  ]
  const fixturePackages: PackageSpecifiers = {
    internal: new Map([
      ['qilin-tools/internal/', 'packages/core/src/'],
      ['@qilin-tools/code-mode/internal/', 'packages/code-mode/src/'],
      ['@qilin-tools/code-mode-python/internal/', 'packages/code-mode-python/src/'],
      ['@qilin-tools/cli/internal/', 'packages/cli/src/'],
    ]),
    entryPoints: new Map([
      ['qilin-tools', 'packages/core/src/index.ts'],
      ['@qilin-tools/code-mode-python', 'packages/code-mode-python/src/index.ts'],
    ]),
  }

  it('names the file, the import and both layers when a file imports a layer above its own', () => {
    const files: SourceFile[] = [
      {
        path: 'packages/core/src/registry/scoped-registry.ts',
        text: "import { run } from '@qilin-tools/cli/internal/run-cli.js'\n",
      },
      {
        path: 'packages/core/src/registry/lazy.ts',
        text: "export const load = () => import('@qilin-tools/code-mode-python/internal/runner.js')\n",
      },
      {
        path: 'packages/core/src/registry/types.ts',
        text: "import type { Limits } from '@qilin-tools/code-mode/internal/ptc-limits.js'\n",
      },
      {
        path: 'packages/code-mode/src/render.ts',
        text: "export { spawnRunner } from '@qilin-tools/code-mode-python'\n",
      },
      {
        path: 'packages/core/src/errors/codes.ts',
        text: "import '../registry/scoped-registry.js'\nimport '../index.js'\n",
      },
    ]
    expect(layerViolations(files, fixtureLayers, fixturePackages)).toEqual([
      "packages/core/src/registry/scoped-registry.ts (packages/core/src/registry/) imports '@qilin-tools/cli/internal/run-cli.js' from packages/cli/src/, a layer above its own",
      "packages/core/src/registry/lazy.ts (packages/core/src/registry/) imports '@qilin-tools/code-mode-python/internal/runner.js' from packages/code-mode-python/src/, a layer above its own",
      "packages/core/src/registry/types.ts (packages/core/src/registry/) imports '@qilin-tools/code-mode/internal/ptc-limits.js' from packages/code-mode/src/, a layer above its own",
      "packages/code-mode/src/render.ts (packages/code-mode/src/) imports '@qilin-tools/code-mode-python' from packages/code-mode-python/src/, a layer above its own",
      "packages/core/src/errors/codes.ts (packages/core/src/errors/) imports '../registry/scoped-registry.js' from packages/core/src/registry/, a layer above its own",
      "packages/core/src/errors/codes.ts (packages/core/src/errors/) imports '../index.js', the package root above every layer",
    ])
  })

  it('allows imports down the order, within a layer, from a lower package and from outside the workspace', () => {
    const files: SourceFile[] = [
      {
        path: 'packages/code-mode-python/src/create.ts',
        text: "import { a } from '@qilin-tools/code-mode/internal/ptc-limits.js'\nimport { b } from './runner.js'\nimport { c } from 'qilin-tools/internal/errors/tool-error.js'\nimport { d } from 'qilin-tools'\nimport ts from 'typescript'\n",
      },
      {
        path: 'packages/cli/src/main.ts',
        text: "import { d } from 'qilin-tools/internal/registry/scoped-registry.js'\n",
      },
      { path: 'packages/core/src/index.ts', text: "export { e } from './registry/scoped-registry.js'\n" },
    ]
    expect(layerViolations(files, fixtureLayers, fixturePackages)).toEqual([])
  })

  it('names a file in a folder no row lists', () => {
    expect(
      layerViolations([{ path: 'packages/core/src/unlisted/thing.ts', text: '' }], fixtureLayers, fixturePackages),
    ).toEqual(['packages/core/src/unlisted/thing.ts is in no source-map row'])
  })

  it('places a pending row after the row it names, moving it if listed, and refuses one already in place', () => {
    const sandbox = { folder: 'packages/sandbox/src/', after: 'packages/core/src/errors/' }
    const errors = 'packages/core/src/errors/'
    const ptc = 'packages/code-mode/src/'
    expect(withPendingRows([errors, ptc], [sandbox])).toEqual([errors, sandbox.folder, ptc])
    expect(withPendingRows([errors, ptc, sandbox.folder], [sandbox])).toEqual([errors, sandbox.folder, ptc])
    expect(() => withPendingRows([errors, sandbox.folder], [sandbox])).toThrow(/drop it from pending-rows/)
    expect(() => withPendingRows([ptc], [sandbox])).toThrow(/does not list/)
  })
})
