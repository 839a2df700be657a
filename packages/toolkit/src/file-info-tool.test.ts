import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace({ 'data.json': '{"a":1}', 'dir/x': '' }, { out: '$OUTSIDE/secret.txt' })
})
afterEach(() => workspace.dispose())

describe('file_info', () => {
  it('reports sizes as numbers and times as ISO strings', async () => {
    const value = await workspace.run('file_info', { path: 'data.json' })
    expect(value).toEqual({
      path: 'data.json',
      type: 'file',
      size: 7,
      modified: expect.any(String),
      mode: expect.any(String),
    })
    expect(Number.isNaN(Date.parse((value as { modified: string }).modified))).toBe(false)
    expect(await workspace.run('file_info', { path: 'dir' })).toMatchObject({ type: 'directory' })
  })

  it('refuses what lies outside', async () => {
    expect(await workspace.refusal('file_info', { path: 'out' })).toContain('outside the workspace')
    expect(await workspace.refusal('file_info', { path: 'missing' })).toContain('no such file or directory')
  })

  it('describes a named pipe without opening it, and list_directory lists it', async () => {
    execFileSync('mkfifo', [join(workspace.root, 'pipe')])
    const started = performance.now()
    expect(await workspace.run('file_info', { path: 'pipe' })).toMatchObject({ type: 'other', size: 0 })
    expect(await workspace.run('list_directory', {})).toMatchObject({
      entries: expect.arrayContaining([{ name: 'pipe', type: 'other', size: 0 }]),
    })
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})
