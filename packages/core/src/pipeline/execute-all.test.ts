import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { expectFailure } from '../../../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import { call } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import { createScheduler } from './scheduler.js'

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

interface Probe {
  running: Set<string>
  exclusiveRunning: boolean
  maxConcurrency: number
  violations: string[]
  events: { id: string; kind: 'start' | 'end' }[]
  abortedSignals: string[]
}

let probe: Probe = freshProbe()

function freshProbe(): Probe {
  return {
    running: new Set(),
    exclusiveRunning: false,
    maxConcurrency: 0,
    violations: [],
    events: [],
    abortedSignals: [],
  }
}

const body =
  (exclusive: boolean) => async (args: { id: string; ticks: number; fail: boolean }, exec: { signal: AbortSignal }) => {
    if (exclusive ? probe.running.size > 0 : probe.exclusiveRunning) probe.violations.push(`${args.id} overlapped`)
    probe.running.add(args.id)
    if (exclusive) probe.exclusiveRunning = true
    probe.maxConcurrency = Math.max(probe.maxConcurrency, probe.running.size)
    probe.events.push({ id: args.id, kind: 'start' })
    for (let index = 0; index < args.ticks; index++) await tick()
    probe.running.delete(args.id)
    if (exclusive) probe.exclusiveRunning = false
    probe.events.push({ id: args.id, kind: 'end' })
    if (exec.signal.aborted) probe.abortedSignals.push(args.id)
    if (args.fail) throw new Error(`${args.id} failed`)
    return args.id
  }

const parameters = {
  id: { type: 'string', required: true },
  ticks: { type: 'integer', required: true },
  fail: { type: 'boolean', required: true },
} as const

const tools = [
  defineTool({ name: 'parallel', description: 'p', parameters, executionMode: 'parallel', execute: body(false) }),
  defineTool({ name: 'exclusive', description: 'e', parameters, execute: body(true) }),
  defineTool({
    name: 'classified',
    description: 'c',
    parameters,
    executionMode: (args) => (args.ticks % 2 === 0 ? 'parallel' : 'exclusive'),
    execute: (args, exec) => body(args.ticks % 2 === 1)(args, exec),
  }),
]

function instrumentedRuntime(cap: number) {
  probe = freshProbe()
  const runtime = createToolRuntime({ maxParallelCalls: cap })
  for (const tool of tools) runtime.register(tool)
  return runtime
}

const callArbitrary = fc.record({
  tool: fc.constantFrom('parallel', 'exclusive', 'classified', 'missing', 'malformed'),
  ticks: fc.integer({ min: 0, max: 3 }),
  fail: fc.boolean(),
})

describe('executeAll', () => {
  it('keeps the concurrency contract over 1,000 random batches', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArbitrary, { maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        async (batch, cap) => {
          const runtime = instrumentedRuntime(cap)
          const calls = batch.map((item, index) => {
            const id = `c${index}`
            if (item.tool === 'malformed') return { id, name: 'parallel', arguments: '{"id":' }
            return call(item.tool, { id, ticks: item.ticks, fail: item.fail }, id)
          })
          const results = await runtime.executeAll(calls)
          expect(probe.violations).toEqual([])
          expect(probe.maxConcurrency).toBeLessThanOrEqual(cap)
          expect(probe.abortedSignals).toEqual([])
          expect(results.map((result) => result.id)).toEqual(calls.map((item) => item.id))
          batch.forEach((item, index) => {
            const result = results[index]!
            if (item.tool === 'missing') expect(expectFailure(result).error.code).toBe('UNKNOWN_TOOL')
            else if (item.tool === 'malformed') expect(expectFailure(result).error.code).toBe('INVALID_ARGUMENTS')
            else if (item.fail) expect(expectFailure(result).error.code).toBe('TOOL_ERROR')
            else expect(result).toMatchObject({ ok: true, value: `c${index}` })
          })
          // An exclusive call starts after everything submitted before it ended, and before anything after it starts.
          const position = (id: string, kind: 'start' | 'end') =>
            probe.events.findIndex((event) => event.id === id && event.kind === kind)
          batch.forEach((item, index) => {
            const exclusive = item.tool === 'exclusive' || (item.tool === 'classified' && item.ticks % 2 === 1)
            if (!exclusive) return
            const start = position(`c${index}`, 'start')
            const end = position(`c${index}`, 'end')
            for (const event of probe.events) {
              const other = Number(event.id.slice(1))
              if (other < index && event.kind === 'end') expect(probe.events.indexOf(event)).toBeLessThan(start)
              if (other > index && event.kind === 'start') expect(probe.events.indexOf(event)).toBeGreaterThan(end)
            }
          })
        },
      ),
      { numRuns: 1000, seed: 20261130 },
    )
  })

  it('lets parallel calls actually overlap up to the cap', async () => {
    const runtime = instrumentedRuntime(3)
    const calls = Array.from({ length: 8 }, (_, index) =>
      call('parallel', { id: `c${index}`, ticks: 2, fail: false }, `c${index}`),
    )
    await runtime.executeAll(calls)
    expect(probe.maxConcurrency).toBe(3)
  })

  it('cancels every call with the batch signal, none because of a sibling', async () => {
    const runtime = createToolRuntime()
    const controller = new AbortController()
    runtime.register(
      defineTool({
        name: 'stop',
        description: 'Aborts the batch.',
        parameters: {},
        executionMode: 'parallel',
        execute: () => {
          controller.abort()
          return 'stopped'
        },
      }),
    )
    const results = await runtime.executeAll([call('stop', {}, 'a'), call('missing', {}, 'b')], {
      signal: controller.signal,
    })
    expect(results.map((result) => (result.ok ? undefined : result.error.code))).toEqual(['ABORTED', 'UNKNOWN_TOOL'])
  })
})

describe('createScheduler', () => {
  it('runs an exclusive task alone between its neighbours', async () => {
    const scheduler = createScheduler(5)
    const log: string[] = []
    const task = (name: string) => async () => {
      log.push(`${name}+`)
      await tick()
      log.push(`${name}-`)
      return name
    }
    const results = await Promise.all([
      scheduler.schedule('parallel', task('p1')),
      scheduler.schedule('parallel', task('p2')),
      scheduler.schedule('exclusive', task('e')),
      scheduler.schedule('parallel', task('p3')),
    ])
    expect(results).toEqual(['p1', 'p2', 'e', 'p3'])
    expect(log).toEqual(['p1+', 'p2+', 'p1-', 'p2-', 'e+', 'e-', 'p3+', 'p3-'])
  })

  it('passes a rejection through and keeps going', async () => {
    const scheduler = createScheduler(1)
    const failed = scheduler.schedule('exclusive', async () => {
      throw new Error('no')
    })
    const next = scheduler.schedule('exclusive', async () => 'next')
    await expect(failed).rejects.toThrow('no')
    await expect(next).resolves.toBe('next')
  })
})
