import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url))

/** One workspace package as its package.json describes it. */
export interface WorkspacePackage {
  /** The npm name: `qilin-tools`, `@qilin-tools/mcp`. */
  readonly name: string
  /** Its folder, absolute: `<repository>/packages/mcp`. */
  readonly directory: string
  readonly manifest: PackageManifest
  /** Its public entry points, `.` first: subpath, specifier, declaration file (absolute) and source file (absolute). */
  readonly entryPoints: readonly EntryPoint[]
}

export interface PackageManifest {
  readonly name: string
  readonly version: string
  readonly exports: Record<string, string | { types?: string; default?: string }>
  readonly dependencies?: Record<string, string>
  readonly bin?: Record<string, string>
}

export interface EntryPoint {
  readonly subpath: string
  /** `qilin-tools/providers`, `@qilin-tools/mcp`. */
  readonly specifier: string
  readonly declaration: string
  readonly source: string
}

/**
 * Every package under packages/, bottom layer first as the root package.json lists them. A subpath pattern
 * (`./internal/*.js`, for the @qilin-tools packages only and under no semver) is not an entry point.
 */
export function workspacePackages(): WorkspacePackage[] {
  const root = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { workspaces: string[] }
  const listed = new Set(readdirSync(join(repositoryRoot, 'packages')).map((name) => `packages/${name}`))
  for (const folder of root.workspaces) listed.delete(folder)
  if (listed.size > 0) throw new Error(`package.json "workspaces" does not list ${[...listed].join(', ')}`)
  return root.workspaces.map((folder) => {
    const directory = join(repositoryRoot, folder)
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as PackageManifest
    const entryPoints: EntryPoint[] = []
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath.includes('*') || typeof target === 'string') continue
      const types = target.types
      if (types === undefined) throw new Error(`${manifest.name} exports "${subpath}" has no "types" condition`)
      const stem = /^\.\/dist\/(.+)\.d\.ts$/.exec(types)?.[1]
      if (stem === undefined)
        throw new Error(`${manifest.name} exports "${subpath}" types ${types} is not under ./dist`)
      entryPoints.push({
        subpath,
        specifier: manifest.name + subpath.slice(1),
        declaration: join(directory, types),
        source: join(directory, 'src', `${stem}.ts`),
      })
    }
    return { name: manifest.name, directory, manifest, entryPoints }
  })
}
