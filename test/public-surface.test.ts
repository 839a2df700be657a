import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { declaredExports } from './support/declared-exports.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types?: string }>
}

/** Every subpath of the package with its declaration file, `.` first. */
const entryPoints = Object.entries(manifest.exports).flatMap(([subpath, target]) =>
  typeof target === 'object' && target.types !== undefined ? [[subpath, join(root, target.types)] as const] : [],
)

function indexDeclarations(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return indexDeclarations(path)
    return entry.name === 'index.d.ts' ? [path] : []
  })
}

// Built once for every case below: the compiler reads `dist/`, so run `npm run build` before this suite.
const declared = declaredExports(entryPoints.map(([, file]) => file))

describe('the public surface, as the built declarations export it', () => {
  it('has an entry point in package.json for every dist/**/index.d.ts', () => {
    const published = entryPoints.map(([, file]) => relative(root, file)).sort()
    expect(
      indexDeclarations(join(root, 'dist'))
        .map((file) => relative(root, file))
        .sort(),
    ).toEqual(published)
  })

  // An export added or removed fails here: update with `npx vitest run -u test/public-surface.test.ts`, read the diff.
  it.each(entryPoints)('pins the value and type exports of %s', (_, file) => {
    expect(declared.get(file)).toMatchSnapshot()
  })
})
