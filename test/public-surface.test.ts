import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { workspacePackages } from '../scripts/workspace-packages.js'
import { repositoryRoot } from './support/built-cli.js'
import { declaredExports } from './support/declared-exports.js'

const packages = workspacePackages()
const entryPoints = packages.flatMap((workspace) => workspace.entryPoints)

function indexDeclarations(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return indexDeclarations(path)
    return entry.name === 'index.d.ts' ? [path] : []
  })
}

// Built once for every case below: the compiler reads each package's `dist/`, so run `npm run build` first.
const declared = declaredExports(entryPoints.map((entry) => entry.declaration))

describe('the public surface, as the built declarations export it', () => {
  it.each(packages.map((workspace) => [workspace.name, workspace] as const))(
    'has an entry point in %s package.json for every dist/**/index.d.ts',
    (_, workspace) => {
      const published = workspace.entryPoints.map((entry) => relative(repositoryRoot, entry.declaration)).sort()
      expect(
        indexDeclarations(join(workspace.directory, 'dist'))
          .map((file) => relative(repositoryRoot, file))
          .sort(),
      ).toEqual(published)
    },
  )

  // An export added or removed fails here: update with `npx vitest run -u test/public-surface.test.ts`, read the diff.
  it.each(entryPoints.map((entry) => [entry.specifier, entry.declaration] as const))(
    'pins the value and type exports of %s',
    (_, file) => {
      expect(declared.get(file)).toMatchSnapshot()
    },
  )
})
