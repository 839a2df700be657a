import { createNodePtcRuntime } from '@qilin-tools/code-mode-node/internal/create-node-ptc-runtime.js'
import { wait } from 'qilin-tools/internal/pipeline/__fixtures__/tools.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { describe, expect, it } from 'vitest'
import { progressLine, trackSubCalls } from './sub-call-tracker.js'

describe('the live status line of run', () => {
  it('names the calls running now with their elapsed time, beside the settled count', () => {
    const running = new Map([
      ['a', { name: 'bash', startedAt: 1000 }],
      ['b', { name: 'grep', startedAt: 2500 }],
    ])
    expect(progressLine([], running, 3700)).toBe('run_code: running bash 2.7 s, grep 1.2 s')
    const settled = [
      { id: 's', name: 'read_file', ok: false, code: 'TOOL_ERROR' as const, durationMs: 12.4, content: [] },
    ]
    expect(progressLine(settled, running, 3700)).toBe(
      'run_code: 1 call settled, 1 failed · read_file TOOL_ERROR 12 ms · running bash 2.7 s, grep 1.2 s',
    )
    const many = new Map(['1', '2', '3', '4', '5'].map((id) => [id, { name: `tool_${id}`, startedAt: 0 }]))
    expect(progressLine([], many, 100)).toBe('run_code: running tool_1 0.1 s, tool_2 0.1 s, tool_3 0.1 s +2 more')
    expect(progressLine([], new Map(), 0)).toBe('')
  })

  it('shows the latest progress an MCP server reported for a running call, terminal-safe and short', () => {
    const tracker = trackSubCalls('prog', () => {})
    const call = (id: string, name: string) =>
      ({ call: { id, name, parentId: 'prog' } }) as unknown as Parameters<typeof tracker.started>[0]
    tracker.started(call('a', 'everything__trigger-long-running-operation'))
    tracker.started(call('b', 'everything__echo'))
    tracker.progressed({ callId: 'a', progress: 2, total: 5 })
    tracker.progressed({ callId: 'b', progress: 7, message: `\u001b[2Jindexing ${'x'.repeat(500)}` })
    tracker.progressed({ callId: 'settled-or-unknown', progress: 1 })
    const line = progressLine(tracker.records, tracker.running, performance.now())
    expect(line).toMatch(/^run_code: running everything__trigger-long-running-operation \d+\.\d s 2\/5, /)
    expect(line).toMatch(/everything__echo \d+\.\d s 7 {2}\[2Jindexing x+…$/)
    expect(line).not.toContain('\u001b')
    expect(line.length).toBeLessThan(160)
    expect(tracker.running.size).toBe(2)
  })

  it('tracks the sub-calls of its program from start to settlement through the real pipeline', async () => {
    const ptcRuntime = createNodePtcRuntime({ poolSize: 0 })
    try {
      const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime })
      runtime.register(wait)
      const tracker = trackSubCalls('prog', () => {})
      runtime.on('tools/pre-execute', tracker.started, { order: -Number.MAX_VALUE })
      runtime.on('tools/result', tracker.observe)
      const program = runtime.execute({
        id: 'prog',
        name: 'run_code',
        arguments: { code: 'return await tools.wait({ ms: 400 })', description: 'wait' },
      })
      const seen = await new Promise<string[]>((resolve) => {
        const look = setInterval(() => {
          if (tracker.running.size === 0) return
          clearInterval(look)
          resolve([...tracker.running].map(([id, running]) => `${id} ${running.name}`))
        }, 5)
      })
      expect(seen).toEqual(['prog:ptc:1 wait'])
      expect(await program).toMatchObject({ ok: true })
      expect(tracker.running.size).toBe(0)
      expect(tracker.records.map((record) => [record.id, record.ok])).toEqual([['prog:ptc:1', true]])
    } finally {
      await ptcRuntime.close()
    }
  })
})
