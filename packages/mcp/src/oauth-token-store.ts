import { createHash, randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'

/** What is kept between runs for one MCP server URL: its tokens, the client registration, the discovery results. */
export interface McpOAuthRecord {
  readonly tokens?: OAuthTokens
  readonly client?: OAuthClientInformationMixed
  readonly discovery?: OAuthDiscoveryState
}

/** Where OAuth records are kept, one per MCP server URL. */
export interface McpTokenStore {
  load(serverUrl: string): Promise<McpOAuthRecord | undefined>
  save(serverUrl: string, record: McpOAuthRecord): Promise<void>
}

/** A record file past this is not read: it was not written by us. */
const MAX_RECORD_BYTES = 1_048_576

/** `$XDG_CONFIG_HOME/qilin-tools/oauth`, or `~/.config/qilin-tools/oauth` when that is unset or not absolute. */
export function defaultTokenDirectory(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const configHome = env.XDG_CONFIG_HOME
  const base = configHome?.startsWith('/') ? configHome : join(home, '.config')
  return join(base, 'qilin-tools', 'oauth')
}

/**
 * The file name for a server URL: a hash of the parsed URL, so no spelling of a hostile URL (`..`, slashes, NUL,
 * a thousand characters) reaches the path, and two spellings of one URL share a file.
 */
export function tokenFileName(serverUrl: string): string {
  return `${createHash('sha256').update(new URL(serverUrl).href).digest('hex')}.json`
}

/**
 * Keeps each server's record in its own file under `directory` (default `defaultTokenDirectory()`): the directory
 * mode 0700, each file 0600, written to a temporary file and renamed so a crash never leaves half a record. A file
 * that is a symlink, not a regular file, too large, not JSON, or recorded for another URL reads as no record.
 */
export function fileTokenStore(options: { readonly directory?: string } = {}): McpTokenStore {
  const directory = options.directory ?? defaultTokenDirectory()
  return {
    async load(serverUrl) {
      const path = join(directory, tokenFileName(serverUrl))
      let handle: Awaited<ReturnType<typeof open>>
      try {
        handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW)
      } catch {
        return undefined
      }
      try {
        const stats = await handle.stat()
        if (!stats.isFile() || stats.size > MAX_RECORD_BYTES) return undefined
        const parsed: unknown = JSON.parse(await handle.readFile('utf8'))
        if (typeof parsed !== 'object' || parsed === null) return undefined
        const { serverUrl: recorded, ...record } = parsed as McpOAuthRecord & { serverUrl?: unknown }
        return recorded === new URL(serverUrl).href ? record : undefined
      } catch {
        return undefined
      } finally {
        await handle.close()
      }
    },
    async save(serverUrl, record) {
      await mkdir(directory, { recursive: true, mode: 0o700 })
      await chmod(directory, 0o700)
      const path = join(directory, tokenFileName(serverUrl))
      const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
      const handle = await open(temporary, 'wx', 0o600)
      try {
        await handle.writeFile(`${JSON.stringify({ serverUrl: new URL(serverUrl).href, ...record })}\n`)
        await handle.sync()
      } finally {
        await handle.close()
      }
      try {
        await rename(temporary, path)
      } catch (cause) {
        await rm(temporary, { force: true })
        throw cause
      }
    },
  }
}

/** Keeps records in memory for the life of the process: for tests and hosts that must not write to disk. */
export function memoryTokenStore(): McpTokenStore {
  const records = new Map<string, McpOAuthRecord>()
  return {
    load: async (serverUrl) => records.get(new URL(serverUrl).href),
    save: async (serverUrl, record) => {
      records.set(new URL(serverUrl).href, record)
    },
  }
}
