import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { add, echo } from '../pipeline/__fixtures__/tools.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import type { ApprovalEvent } from '../pipeline/pipeline-events.js'
import type { CliIo } from './cli-command.js'
import { terminalApprover } from './terminal-approver.js'

function terminal() {
  const stdin = new PassThrough()
  let stderr = ''
  const io: CliIo = {
    cwd: '/',
    env: {},
    stdin: Object.assign(stdin, { isTTY: true }),
    stdinIsTty: true,
    stderrIsTty: true,
    write: () => {},
    error: (text) => {
      stderr += text
    },
    status: () => {},
    stop: new AbortController().signal,
  }
  return { io, stdin, stderr: () => stderr }
}

/** Answers each question on the terminal with the next reply, as a person typing would. */
function answering(stdin: PassThrough, stderr: () => string, replies: string[]) {
  let asked = 0
  const timer = setInterval(() => {
    const questions = stderr().split('? [y/N/a').length - 1
    if (questions > asked && replies.length > 0) {
      asked = questions
      stdin.write(`${replies.shift()}\n`)
    }
  }, 5)
  return () => clearInterval(timer)
}

describe('terminalApprover', () => {
  it('offers "always for this run": the tool is then allowed without asking, others still ask', async () => {
    const { io, stdin, stderr } = terminal()
    const runtime = createToolRuntime({ approve: terminalApprover(io, 'qilin.config.json') })
    runtime.register(add)
    runtime.register(echo)
    runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'check' }))
    const events: ApprovalEvent[] = []
    runtime.on('tools/approval', (event) => {
      events.push(event)
    })
    const stop = answering(stdin, stderr, ['a', 'n'])
    try {
      const results = await Promise.all([
        runtime.execute({ id: '1', name: 'add', arguments: { a: 1, b: 2 } }),
        runtime.execute({ id: '2', name: 'add', arguments: { a: 3, b: 4 } }),
      ])
      expect(results.map((result) => result.ok)).toEqual([true, true])
      expect(await runtime.execute({ id: '3', name: 'add', arguments: { a: 5, b: 6 } })).toMatchObject({ ok: true })
      expect(await runtime.execute({ id: '4', name: 'echo', arguments: { text: 'x' } })).toMatchObject({
        ok: false,
        error: { code: 'DENIED' },
      })
    } finally {
      stop()
    }
    expect(stderr().match(/Allow add /g)).toHaveLength(1)
    expect(stderr()).toContain('Allow echo {"text":"x"}? [y/N/a = always echo in this run] ')
    expect(events.map((event) => [event.call.id, event.verdict, event.decidedBy])).toEqual([
      ['1', 'approved', 'terminal (always for this run)'],
      ['2', 'approved', 'terminal (always for this run)'],
      ['3', 'approved', 'terminal (always for this run)'],
      ['4', 'denied', 'terminal'],
    ])
  })
})
