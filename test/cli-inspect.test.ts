import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { request } from 'node:http'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { builtCli, createTempProject, ensureBuiltCli, type TempProject } from './support/built-cli.js'

let project: TempProject
let inspector: ChildProcess | undefined
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject()
})
afterEach(() => {
  if (inspector?.exitCode === null) inspector.kill('SIGKILL')
  inspector = undefined
  project.dispose()
})

const records = [
  { type: 'tool.call.started', id: 'c1', name: 'read_file', arguments: { path: 'a.txt' }, at: 1_700_000_000_000 },
  {
    type: 'tool.call.settled',
    id: 'c1',
    name: 'read_file',
    ok: true,
    content: [{ type: 'text', text: 'a' }],
    durationMs: 3,
    at: 1_700_000_000_003,
  },
]

/** Starts `qilin-tools inspect` and waits for the one line that names its URL. */
async function startInspect(...args: string[]): Promise<{ url: string; stderr: () => string }> {
  inspector = spawn(process.execPath, ['--no-node-snapshot', builtCli, 'inspect', ...args], {
    cwd: project.directory,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  inspector.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  for (;;) {
    const match = /at (http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/)\n/.exec(stderr)
    if (match !== null) return { url: match[1]!, stderr: () => stderr }
    if (inspector.exitCode !== null) throw new Error(`inspect exited: ${stderr}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => {
        body += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

describe('qilin-tools inspect', () => {
  it('serves the page under a token printed once, refuses other paths and foreign Host headers, stops on SIGINT', async () => {
    project.write('session.jsonl', `${records.map((record) => JSON.stringify(record)).join('\n')}\n`)
    const { url, stderr } = await startInspect('session.jsonl')
    const page = await get(url)
    expect(page.status).toBe(200)
    expect(page.body).toContain('<script type="module" src="inspector.js"></script>')
    expect(page.body).not.toMatch(/https?:\/\//)
    const session = JSON.parse((await get(`${url}api/session`)).body)
    expect(session.calls.map((call: { name: string; state: string }) => [call.name, call.state])).toEqual([
      ['read_file', 'ok'],
    ])
    const origin = new URL(url).origin
    const token = new URL(url).pathname.split('/')[1]!
    expect(token.length).toBeGreaterThanOrEqual(32)
    expect((await get(`${origin}/`)).status).toBe(404)
    expect((await get(`${origin}/api/session`)).status).toBe(404)
    // One character off; a token that already ends in x would make "x" the right token (1 run in 64).
    const wrongToken = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`
    expect((await get(`${origin}/${wrongToken}/api/session`)).status).toBe(404)
    expect((await get(`${origin}/${token}/../../etc/passwd`)).status).toBe(404)
    expect((await get(`${url}api/session`, { host: 'attacker.example' })).status).toBe(403)
    expect((await get(`${url}api/events`)).status).toBe(404)
    expect(stderr().split(token)).toHaveLength(2)
    inspector!.kill('SIGINT')
    const [code] = await once(inspector!, 'exit')
    expect(code).toBe(130)
  }, 60_000)

  it('with --cards builds the configured runtime, serves calls with the cards it describes, and closes it on SIGINT', async () => {
    project.write('session.jsonl', `${records.map((record) => JSON.stringify(record)).join('\n')}\n`)
    const { url } = await startInspect('session.jsonl', '--cards', '--port', '0')
    const detail = JSON.parse((await get(`${url}api/call/0`)).body)
    expect(detail).toMatchObject({ name: 'read_file', arguments: { path: 'a.txt' }, cards: {} })
    expect((await get(`${url}api/call/1`)).status).toBe(404)
    expect((await get(`${url}api/call/99999999999`)).status).toBe(404)
    inspector!.kill('SIGINT')
    const [code] = await once(inspector!, 'exit')
    expect(code).toBe(130)
  }, 60_000)
})
