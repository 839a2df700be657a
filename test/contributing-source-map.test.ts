import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repositoryRoot } from './support/built-cli.js'

describe('the source map in CONTRIBUTING.md', () => {
  it('names only files and folders that exist', () => {
    const text = readFileSync(join(repositoryRoot, 'CONTRIBUTING.md'), 'utf8')
    const map = text.split(/^## Source map\s*$/m)[1] ?? ''
    const rows = map.split('\n').filter((line) => line.startsWith('| `packages/'))
    expect(rows.length).toBeGreaterThan(10)
    const missing: string[] = []
    for (const row of rows) {
      const folder = /^\| `([^`]+)`/.exec(row)![1]!
      for (const [, name] of row.matchAll(/`([^`*]+\.(?:ts|py)|[a-z-]+\/)`/g)) {
        const path = join(repositoryRoot, folder, name!)
        if (!existsSync(path)) missing.push(`${folder}${name}`)
      }
    }
    expect(missing).toEqual([])
  })
})
