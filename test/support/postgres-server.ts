import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { postgresBinaries } from './system-requirement.js'

/** A throwaway PostgreSQL cluster on a loopback port, run by the test process and removed by `stop`. */
export interface PostgresServer {
  /** `postgres://qilin@127.0.0.1:<port>/postgres`. */
  readonly connectionString: string
  readonly port: number
  /** A connection string for a fresh, empty database of its own (`createDatabase` creates it). */
  createDatabase(name: string): Promise<string>
  /** Fast shutdown, then the cluster's folder is removed. */
  stop(): Promise<void>
  /** SIGKILL to the postmaster, for tests of a server that vanishes; `stop` still cleans up. */
  kill(): Promise<void>
}

export interface PostgresServerOptions {
  /** Extra `-c name=value` settings, e.g. `{ synchronous_commit: 'off' }`. */
  readonly settings?: Readonly<Record<string, string>>
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject()))
    })
  })
}

/**
 * PostgreSQL refuses to run as root. Under root the cluster belongs to the `postgres` user Debian's package creates,
 * and initdb and the server start with its uid and gid (Node's `spawn` sets them; no `su` or `runuser` in between,
 * so signals reach the server itself).
 */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'))
  if (line === undefined) throw new Error('running as root, and there is no postgres user to run PostgreSQL as')
  const [, , uid, gid] = line.split(':')
  return { uid: Number(uid), gid: Number(gid) }
}

async function waitUntilReady(connectionString: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new Error(`PostgreSQL exited while starting:\n${log()}`)
    const client = new pg.Client({ connectionString })
    try {
      await client.connect()
      await client.end()
      return
    } catch (error) {
      await client.end().catch(() => {})
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections in 60 s: ${String(error)}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

/** Starts a fresh cluster (initdb, trust authentication on loopback only, no fsync unless `settings` says so). */
export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinaries()
  if (bin === undefined) throw new Error('PostgreSQL is not installed: apt-get install postgresql')
  const user = serverUser()
  const directory = mkdtempSync(join(tmpdir(), 'qilin-postgres-'))
  const data = join(directory, 'data')
  if (user !== undefined) chownSync(directory, user.uid, user.gid)
  const asUser = user === undefined ? {} : { uid: user.uid, gid: user.gid }
  execFileSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'qilin', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'],
    { ...asUser, stdio: 'pipe', cwd: directory },
  )
  const port = await freePort()
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: directory,
    fsync: 'off',
    max_connections: '200',
    ...options.settings,
  }
  let log = ''
  const server = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    { ...asUser, cwd: directory, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  server.stdout?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000)
  })
  server.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000)
  })
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  const connectionString = `postgres://qilin@127.0.0.1:${port}/postgres`
  const end = async (signal: NodeJS.Signals) => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill(signal)
      await exited
    }
  }
  try {
    await waitUntilReady(connectionString, server, () => log)
  } catch (error) {
    await end('SIGKILL')
    rmSync(directory, { recursive: true, force: true })
    throw error
  }
  return {
    connectionString,
    port,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`)
      const client = new pg.Client({ connectionString })
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${name}`)
      } finally {
        await client.end()
      }
      return `postgres://qilin@127.0.0.1:${port}/${name}`
    },
    async stop() {
      // SIGINT is PostgreSQL's fast shutdown: it disconnects clients and exits.
      await end('SIGINT')
      rmSync(directory, { recursive: true, force: true })
    },
    async kill() {
      await end('SIGKILL')
    },
  }
}
