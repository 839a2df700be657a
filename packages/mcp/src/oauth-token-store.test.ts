import { mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultTokenDirectory, fileTokenStore, tokenFileName } from './oauth-token-store.js'

const cleanup: string[] = []
afterEach(async () => {
  for (const directory of cleanup.splice(0)) await rm(directory, { recursive: true, force: true })
})

async function scratch(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'qilin-token-store-'))
  cleanup.push(directory)
  return directory
}

const record = { tokens: { access_token: 'a', token_type: 'Bearer', refresh_token: 'r' } }

describe('fileTokenStore', () => {
  it('lives under XDG_CONFIG_HOME when it is absolute, else under ~/.config', () => {
    expect(defaultTokenDirectory({ XDG_CONFIG_HOME: '/xdg' }, '/home/u')).toBe('/xdg/qilin-tools/oauth')
    expect(defaultTokenDirectory({ XDG_CONFIG_HOME: 'relative' }, '/home/u')).toBe('/home/u/.config/qilin-tools/oauth')
    expect(defaultTokenDirectory({}, '/home/u')).toBe('/home/u/.config/qilin-tools/oauth')
  })

  it('names every file by a hash, so hostile server URLs cannot leave the directory', async () => {
    const directory = join(await scratch(), 'oauth')
    const store = fileTokenStore({ directory })
    const hostile = [
      'http://evil.example/../../../../etc/passwd',
      'http://evil.example/%2e%2e%2f%2e%2e%2fetc',
      `http://evil.example/${'a/'.repeat(2000)}`,
      'http://evil.example/\u0000/x',
    ]
    for (const url of hostile) {
      expect(tokenFileName(url)).toMatch(/^[0-9a-f]{64}\.json$/)
      await store.save(url, record)
      expect(await store.load(url)).toEqual(record)
    }
    expect((await readdir(directory)).every((name) => /^[0-9a-f]{64}\.json$/.test(name))).toBe(true)
    expect(await readdir(join(directory, '..'))).toEqual(['oauth'])
  })

  it('writes files 0600 in a directory it makes (or tightens to) 0700, and keeps one URL apart from another', async () => {
    const directory = join(await scratch(), 'oauth')
    await mkdir(directory, { mode: 0o755 })
    const store = fileTokenStore({ directory })
    await store.save('https://one.example/mcp', record)
    expect((await stat(directory)).mode & 0o777).toBe(0o700)
    const file = join(directory, tokenFileName('https://one.example/mcp'))
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(await store.load('https://two.example/mcp')).toBeUndefined()
    expect(await store.load('https://ONE.example:443/mcp')).toEqual(record)
  })

  it('reads a planted symlink, a huge file, garbage or a record for another URL as no record', async () => {
    const directory = await scratch()
    const store = fileTokenStore({ directory })
    const url = 'https://server.example/mcp'
    const file = join(directory, tokenFileName(url))
    const elsewhere = join(directory, 'elsewhere.json')
    await writeFile(elsewhere, JSON.stringify({ serverUrl: url, ...record }))
    await symlink(elsewhere, file)
    expect(await store.load(url)).toBeUndefined()
    await rm(file)
    await writeFile(file, `{"serverUrl":"${url}","pad":"${'x'.repeat(1_100_000)}"}`)
    expect(await store.load(url)).toBeUndefined()
    await writeFile(file, 'not json')
    expect(await store.load(url)).toBeUndefined()
    await writeFile(file, JSON.stringify({ serverUrl: 'https://other.example/mcp', ...record }))
    expect(await store.load(url)).toBeUndefined()
  })
})
