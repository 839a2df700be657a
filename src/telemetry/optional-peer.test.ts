import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { expect, it } from 'vitest'

const source = join(import.meta.dirname, '..')

function libraryFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : libraryFiles(path)
    return /\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : []
  })
}

// `@opentelemetry/api` is an optional peer: a host that never instruments must never load it.
it('imports @opentelemetry/* only from src/telemetry/', () => {
  const importers = libraryFiles(source)
    .filter((path) => /from '@opentelemetry\/|import\('@opentelemetry\//.test(readFileSync(path, 'utf8')))
    .map((path) => relative(source, path).split(sep).join('/'))
  expect(importers.length).toBeGreaterThan(0)
  expect(importers.filter((path) => !path.startsWith('telemetry/'))).toEqual([])
})
