import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createJsonlSessionLog } from './jsonl-session-log.js'
import { parseJsonlSessionLog, readJsonlSessionLog } from './read-jsonl-session-log.js'
import type { SessionLogRecord } from './session-log.js'

const started = (id: string): SessionLogRecord => ({ type: 'tool.call.started', id, name: 'add', arguments: {}, at: 1 })
const settled = (id: string): SessionLogRecord => ({
  type: 'tool.call.settled',
  id,
  name: 'add',
  ok: true,
  content: [{ type: 'text', text: '3' }],
  durationMs: 1,
  at: 2,
})

describe('JSONL session log', () => {
  let directory: string
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'qilin-session-log-'))
  })
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  it('appends one line per record, settled appends resolving once on disk', async () => {
    const path = join(directory, 'log.jsonl')
    const log = createJsonlSessionLog(path)
    log.append(started('a'))
    const written = log.append(settled('a'))
    expect(written).toBeInstanceOf(Promise)
    await written
    const text = await readFile(path, 'utf8')
    expect(text.split('\n')).toHaveLength(3)
    expect(parseJsonlSessionLog(text)).toEqual([started('a'), settled('a')])
    await log.close()
    await expect(log.append(settled('b'))).rejects.toThrow(/closed/)
  })

  it("reads back attempt records between a call's start and its settlement", async () => {
    const path = join(directory, 'attempts.jsonl')
    const log = createJsonlSessionLog(path)
    const attempt: SessionLogRecord = {
      type: 'tool.call.attempt',
      id: 'a',
      name: 'add',
      attempt: 1,
      error: { code: 'TOOL_ERROR', message: 'flaky' },
      at: 1,
    }
    log.append(started('a'))
    log.append(attempt)
    await log.append(settled('a'))
    await log.close()
    expect(await readJsonlSessionLog(path)).toEqual([started('a'), attempt, settled('a')])
  })

  it('skips a torn last line, and a resumed writer keeps the fragment on a line of its own', async () => {
    const path = join(directory, 'log.jsonl')
    await writeFile(path, `${JSON.stringify(started('a'))}\n${JSON.stringify(settled('a')).slice(0, 25)}`)
    expect(await readJsonlSessionLog(path)).toEqual([started('a')])
    const log = createJsonlSessionLog(path)
    await log.append(settled('b'))
    await log.close()
    expect(await readJsonlSessionLog(path)).toEqual([started('a'), settled('b')])
  })

  it('keeps order under concurrent appends', async () => {
    const path = join(directory, 'log.jsonl')
    const log = createJsonlSessionLog(path)
    const ids = Array.from({ length: 200 }, (_, index) => `c${index}`)
    await Promise.all(ids.map((id) => log.append(settled(id))))
    await log.close()
    expect((await readJsonlSessionLog(path)).map((record) => record.id)).toEqual(ids)
  })

  it('loses no settled record of a process killed mid-run', async () => {
    const path = join(directory, 'killed.jsonl')
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./__fixtures__/kill-child.ts', import.meta.url)), path],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const acknowledged: string[] = []
    let buffered = ''
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      acknowledged.push(...lines)
      if (acknowledged.length >= 400) child.kill('SIGKILL')
    })
    expect(await exited).toBe('SIGKILL')
    const records = await readJsonlSessionLog(path)
    const settledIds = new Set(
      records.filter((record) => record.type === 'tool.call.settled').map((record) => record.id),
    )
    const startedIds = new Set(
      records.filter((record) => record.type === 'tool.call.started').map((record) => record.id),
    )
    expect(acknowledged.length).toBeGreaterThanOrEqual(400)
    expect(acknowledged.filter((id) => !settledIds.has(id))).toEqual([])
    expect([...settledIds].filter((id) => !startedIds.has(id))).toEqual([])
  })
})
