import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findPython } from './find-python.js'

const directory = mkdtempSync(join(tmpdir(), 'qilin-find-python-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

function script(name: string, body: string): string {
  const path = join(directory, name)
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}

describe('findPython', () => {
  const found = findPython()
  if (!('executable' in found)) throw new Error(found.problem)

  it('resolves a shell shim to the real interpreter it runs', () => {
    const shim = script('python3-shim', `exec ${found.executable} "$@"`)
    const resolved = findPython(shim)
    expect('executable' in resolved && resolved.executable).toBe(found.executable)
  })

  it('refuses an interpreter older than 3.11', () => {
    const old = script(
      'python-old',
      `echo '{"executable": "/old/python", "version": [3, 9, 18], "stdlib": "/old", "landlock": 0}'`,
    )
    expect(findPython(old)).toEqual({ problem: `no CPython 3.11 or newer found (${old}: version 3.9.18 is too old)` })
  })

  it('refuses something that is not Python', () => {
    const liar = script('not-python', 'echo hello')
    expect(findPython(liar)).toEqual({ problem: `no CPython 3.11 or newer found (${liar}: did not answer the probe)` })
  })

  it('reports what it found about the default interpreter', () => {
    expect(found.version).toMatch(/^3\.(1[1-9]|[2-9]\d)\.\d+$/)
    expect(found.stdlib).toMatch(/python3\.\d+$/)
  })
})
