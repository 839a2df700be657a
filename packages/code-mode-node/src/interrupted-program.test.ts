import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findInterruptedCalls, recoverInterruptedCalls } from 'qilin-tools/internal/approvals/interrupted-calls.js'
import { createMemoryStore } from 'qilin-tools/internal/approvals/memory-store.js'
import { readJsonlSessionLog } from 'qilin-tools/internal/session-log/read-jsonl-session-log.js'
import { afterAll, describe, expect, it } from 'vitest'

const directory = mkdtempSync(join(tmpdir(), 'qilin-interrupted-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const host = fileURLToPath(new URL('./__fixtures__/waiting-program-host.ts', import.meta.url))

/** Runs the host until its program waits for approval, then kills it with SIGKILL. */
function killWhileWaiting(path: string): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', host, path], {
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: 60_000,
      killSignal: 'SIGKILL',
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (output.includes('settled')) reject(new Error('the program settled: its approver was never to answer'))
      if (output.includes('waiting') && child.pid !== undefined) process.kill(child.pid, 'SIGKILL')
    })
    child.on('error', reject)
    child.on('exit', (_code, signal) => resolve(signal))
  })
}

describe('a code-mode program whose process dies while a sub-call waits for approval', () => {
  it('leaves a log that says the program was interrupted, with the sub-call that had settled', async () => {
    const path = join(directory, 'killed.jsonl')
    expect(await killWhileWaiting(path)).toBe('SIGKILL')
    const records = await readJsonlSessionLog(path)
    const interrupted = findInterruptedCalls(records)
    expect(interrupted).toHaveLength(1)
    expect(interrupted[0]).toMatchObject({
      id: 'program-1',
      name: 'run_code',
      waitingOn: [{ name: 'delete_file' }],
      settled: [{ name: 'add', ok: true }],
    })
    expect(records.some((record) => record.type === 'tool.call.settled' && record.id === 'program-1')).toBe(false)

    // Reopened on a store, recovery settles what was left open, once.
    const store = createMemoryStore()
    for (const record of records) await store.append(record)
    const recovered = await recoverInterruptedCalls(store)
    expect(recovered.map((call) => call.id)).toEqual(['program-1'])
    const settled = await store.readSessionLog({ id: 'program-1', type: 'tool.call.settled' })
    expect(settled).toHaveLength(1)
    expect(settled[0]).toMatchObject({ ok: false, error: { code: 'INTERRUPTED' } })
    const message = (settled[0] as { error: { message: string } }).error.message
    expect(message).toMatch(
      /^The call to run_code was interrupted: the process stopped while it waited for approval of delete_file \(.+\); its settled calls were add \(.+\)\. It is not run again\.$/,
    )
    expect(await recoverInterruptedCalls(store)).toEqual([])
  }, 90_000)
})
