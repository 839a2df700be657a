import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isToolError } from 'qilin-tools/internal/errors/tool-error.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openWorkspace, type Workspace } from './workspace.js'

let base: string
let root: string
let outside: string
let workspace: Workspace

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'qilin-workspace-'))
  root = join(base, 'root')
  outside = join(base, 'outside')
  mkdirSync(join(root, 'src'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(join(root, 'src', 'a.txt'), 'a')
  writeFileSync(join(outside, 'secret.txt'), 'secret')
  symlinkSync(outside, join(root, 'escape-dir'))
  symlinkSync(join(outside, 'secret.txt'), join(root, 'escape-file'))
  symlinkSync(join(outside, 'not-yet'), join(root, 'dangling'))
  symlinkSync(join(root, 'src'), join(root, 'inner-link'))
  workspace = openWorkspace(root)
})

afterEach(() => rmSync(base, { recursive: true, force: true }))

async function refusal(path: string, purpose: 'read' | 'write'): Promise<string> {
  try {
    await workspace.resolve(path, purpose)
  } catch (error) {
    if (isToolError(error)) return error.message
    throw error
  }
  throw new Error(`expected ${path} to be refused`)
}

describe('openWorkspace', () => {
  it('resolves paths inside the root to real paths', async () => {
    expect(await workspace.resolve('src/a.txt', 'read')).toBe(join(workspace.root, 'src', 'a.txt'))
    expect(await workspace.resolve('./src/../src/a.txt', 'read')).toBe(join(workspace.root, 'src', 'a.txt'))
    expect(await workspace.resolve(join(workspace.root, 'src'), 'read')).toBe(join(workspace.root, 'src'))
    expect(await workspace.resolve('inner-link/a.txt', 'read')).toBe(join(workspace.root, 'src', 'a.txt'))
    expect(await workspace.resolve('new/dir/file.txt', 'write')).toBe(join(workspace.root, 'new', 'dir', 'file.txt'))
    expect(await workspace.resolve('inner-link/new.txt', 'write')).toBe(join(workspace.root, 'src', 'new.txt'))
  })

  it.each([
    ['../outside/secret.txt', 'read'],
    ['src/../../outside/secret.txt', 'read'],
    ['..', 'read'],
    ['/etc/passwd', 'read'],
    ['escape-dir/secret.txt', 'read'],
    ['escape-file', 'read'],
    ['escape-dir/new.txt', 'write'],
    ['escape-dir/deeper/new.txt', 'write'],
    ['escape-file', 'write'],
    ['../new.txt', 'write'],
    ['dangling', 'write'],
    ['dangling/child.txt', 'write'],
  ] as const)('refuses %s for %s with a message the model can act on', async (path, purpose) => {
    const message = await refusal(path, purpose)
    expect(message).toContain(`"${path}"`)
    expect(message).toMatch(/outside the workspace|symlink whose target does not exist/)
  })

  it('refuses the absolute path of an outside file', async () => {
    expect(await refusal(join(outside, 'secret.txt'), 'read')).toMatchInlineSnapshot(
      `"path "${join(outside, 'secret.txt')}" is outside the workspace; use a path relative to the workspace root (for example "src/index.ts")"`,
    )
  })

  it('names a missing file on read', async () => {
    expect(await refusal('src/missing.txt', 'read')).toBe(
      'no such file or directory: "src/missing.txt"; list the parent directory to check the name',
    )
  })

  it('displays paths relative to the root', () => {
    expect(workspace.display(join(workspace.root, 'src', 'a.txt'))).toBe('src/a.txt')
    expect(workspace.display(workspace.root)).toBe('.')
  })

  it('tells whether a real path is the root or under it', () => {
    expect(workspace.contains(workspace.root)).toBe(true)
    expect(workspace.contains(join(workspace.root, 'src', 'a.txt'))).toBe(true)
    expect(workspace.contains(join(workspace.root, '..', 'outside'))).toBe(false)
    expect(workspace.contains(`${workspace.root}-sibling/a.txt`)).toBe(false)
    expect(workspace.contains(outside)).toBe(false)
  })

  it('rejects a root that does not exist', () => {
    expect(() => openWorkspace(join(base, 'nope'))).toThrow(/does not exist/)
  })
})
