import { context, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import type { PtcRuntime } from '@qilin-tools/code-mode/internal/ptc-port.js'
import { createNodePtcRuntime } from '@qilin-tools/code-mode-node/internal/create-node-ptc-runtime.js'
import { createPythonPtcRuntime } from '@qilin-tools/code-mode-python/internal/create-python-ptc-runtime.js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../../test/support/system-requirement.js'
import { add, call, toolWith, wait } from '../pipeline/__fixtures__/tools.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import { CONTENT_ATTRIBUTE_LIMIT, instrumentOpenTelemetry } from './instrument-open-telemetry.js'

const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const tracer = provider.getTracer('qilin-tools-test')
const contextManager = new AsyncLocalStorageContextManager()

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable())
})
afterAll(() => {
  context.disable()
})
beforeEach(() => exporter.reset())

const spans = () => exporter.getFinishedSpans()
const named = (name: string) => spans().filter((span) => span.name === name)
const only = (name: string): ReadableSpan => {
  const found = named(name)
  expect(found, name).toHaveLength(1)
  return found[0]!
}
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId

/** Runs `work` inside a host span, as an agent loop's model-call span would hold its tool calls. */
async function insideHostSpan<Value>(work: () => Promise<Value>) {
  return tracer.startActiveSpan('chat model', async (host) => {
    try {
      return { value: await work(), host }
    } finally {
      host.end()
    }
  })
}

describe('instrumentOpenTelemetry: native calls', () => {
  it("makes one execute_tool span per call, a child of the caller's active span, with the GenAI attributes", async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    instrumentOpenTelemetry(runtime, { tracer })
    const { value, host } = await insideHostSpan(() => runtime.execute(call('add', { a: 2, b: 3 }, 'call-7')))
    expect(value).toMatchObject({ ok: true, value: 5 })
    const span = only('execute_tool add')
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'gen_ai.tool.call.id': 'call-7',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Add two numbers.',
    })
    expect(span.kind).toBe(0)
    expect(span.status.code).toBe(SpanStatusCode.UNSET)
    expect(span.spanContext().traceId).toBe(host.spanContext().traceId)
    expect(parentOf(span)).toBe(host.spanContext().spanId)
  })

  it('runs the body inside the tool span, so spans the body makes are its children', async () => {
    const runtime = createToolRuntime()
    runtime.register(
      toolWith('fetcher', async () => {
        const inner = tracer.startSpan('http get')
        inner.end()
        return 'ok'
      }),
    )
    instrumentOpenTelemetry(runtime, { tracer })
    await runtime.execute(call('fetcher'))
    expect(parentOf(only('http get'))).toBe(only('execute_tool fetcher').spanContext().spanId)
  })

  it('sets error.type to the error code and the status to error, for a throw, an unknown tool and bad arguments', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    runtime.register(
      toolWith('broken', () => {
        throw new Error('secret token 1234 leaked')
      }),
    )
    instrumentOpenTelemetry(runtime, { tracer })
    const { host } = await insideHostSpan(async () => {
      await runtime.execute(call('broken'))
      await runtime.execute(call('nope'))
      await runtime.execute(call('add', '{"a": "two"}'))
    })
    const cases = [
      ['execute_tool broken', 'TOOL_ERROR'],
      ['execute_tool nope', 'UNKNOWN_TOOL'],
      ['execute_tool add', 'INVALID_ARGUMENTS'],
    ] as const
    for (const [name, code] of cases) {
      const span = only(name)
      expect(span.attributes['error.type'], name).toBe(code)
      expect(span.status, name).toEqual({ code: SpanStatusCode.ERROR, message: code })
      expect(parentOf(span), name).toBe(host.spanContext().spanId)
    }
    const { attributes, status, events } = only('execute_tool broken')
    expect(JSON.stringify({ attributes, status, events })).not.toContain('secret token')
  })

  it('records a denial by the approver, with approval events naming who decided and how long it waited', async () => {
    const runtime = createToolRuntime({
      approve: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        return { approved: false, reason: 'not now', decidedBy: 'alice@example.com' }
      },
    })
    runtime.register(add)
    runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'it adds' }))
    instrumentOpenTelemetry(runtime, { tracer })
    await runtime.execute(call('add', { a: 1, b: 1 }))
    const span = only('execute_tool add')
    expect(span.attributes['error.type']).toBe('DENIED')
    expect(span.status.code).toBe(SpanStatusCode.ERROR)
    expect(span.events.map((event) => event.name)).toEqual(['qilin.approval.requested', 'qilin.approval.decided'])
    expect(span.events[0]!.attributes).toEqual({ 'qilin.approval.reasons': ['it adds'] })
    const decided = span.events[1]!.attributes!
    expect(decided['qilin.approval.verdict']).toBe('denied')
    expect(decided['qilin.approval.decided_by']).toBe('alice@example.com')
    expect(decided['qilin.approval.wait_ms']).toBeGreaterThanOrEqual(15)
    expect(decided).not.toHaveProperty('qilin.approval.reason')
  })

  it('records a timeout and a cancellation by their codes', async () => {
    const runtime = createToolRuntime()
    runtime.register(wait)
    runtime.register(toolWith('slow', () => new Promise(() => {}), { timeoutMs: 30 }))
    instrumentOpenTelemetry(runtime, { tracer })
    const timedOut = await runtime.execute(call('slow'))
    expect(timedOut).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } })
    const controller = new AbortController()
    const cancelled = runtime.execute(call('wait', { ms: 10_000 }), { signal: controller.signal })
    setTimeout(() => controller.abort(), 10)
    expect(await cancelled).toMatchObject({ ok: false, error: { code: 'ABORTED' } })
    expect(only('execute_tool slow').attributes['error.type']).toBe('TOOL_TIMEOUT')
    expect(only('execute_tool wait').attributes['error.type']).toBe('ABORTED')
    expect(only('execute_tool wait').status.code).toBe(SpanStatusCode.ERROR)
  })

  it('marks each retry of the body as an event', async () => {
    const runtime = createToolRuntime()
    let attempts = 0
    runtime.register(
      toolWith('flaky', () => {
        attempts++
        if (attempts < 3) throw new Error('try again')
        return 'done'
      }),
    )
    runtime.on('tools/execute', async (_exec, next) => {
      let outcome = await next()
      while (!outcome.ok && attempts < 3) outcome = await next()
      return outcome
    })
    instrumentOpenTelemetry(runtime, { tracer })
    expect(await runtime.execute(call('flaky'))).toMatchObject({ ok: true })
    const span = only('execute_tool flaky')
    expect(span.events.map((event) => [event.name, event.attributes?.['qilin.retry.attempt']])).toEqual([
      ['qilin.retry', 2],
      ['qilin.retry', 3],
    ])
    expect(span.status.code).toBe(SpanStatusCode.UNSET)
  })

  it('records arguments, results and error messages only with captureContent, each bounded', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    runtime.register(toolWith('echo_big', () => 'y'.repeat(1_000_000)))
    const off = instrumentOpenTelemetry(runtime, { tracer })
    await runtime.execute(call('add', { a: 2, b: 3 }))
    expect(Object.keys(only('execute_tool add').attributes)).not.toContain('gen_ai.tool.call.arguments')
    off.dispose()
    exporter.reset()
    instrumentOpenTelemetry(runtime, { tracer, captureContent: true })
    await runtime.execute(call('add', { a: 2, b: 3 }))
    await runtime.execute(call('echo_big', { x: 1 }))
    await runtime.execute(call('add', { a: 'x'.repeat(100_000), b: 1 }))
    const [good, bad] = named('execute_tool add')
    expect(good!.attributes['gen_ai.tool.call.arguments']).toBe('{"a":2,"b":3}')
    expect(good!.attributes['gen_ai.tool.call.result']).toBe('5')
    expect(String(bad!.status.message)).toMatch(/^Invalid arguments for add/)
    expect(String(bad!.status.message).length).toBeLessThanOrEqual(CONTENT_ATTRIBUTE_LIMIT + 1)
    const big = only('execute_tool echo_big').attributes['gen_ai.tool.call.result'] as string
    expect(big).toHaveLength(CONTENT_ATTRIBUTE_LIMIT + 1)
  })

  it('installs nothing before it is called and removes every listener on dispose', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    await runtime.execute(call('add', { a: 1, b: 1 }))
    const instrumentation = instrumentOpenTelemetry(runtime, { tracer })
    await runtime.execute(call('add', { a: 1, b: 1 }))
    instrumentation.dispose()
    await runtime.execute(call('add', { a: 1, b: 1 }))
    expect(spans()).toHaveLength(1)
  })

  it('keeps the call running when the tracer throws', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const broken = {
      startSpan: () => {
        throw new Error('exporter misconfigured')
      },
      startActiveSpan: () => {
        throw new Error('exporter misconfigured')
      },
    } as unknown as typeof tracer
    instrumentOpenTelemetry(runtime, { tracer: broken })
    expect(await runtime.execute(call('add', { a: 2, b: 2 }))).toMatchObject({ ok: true, value: 4 })
    expect(await runtime.execute(call('nope'))).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } })
  })

  it('uses the global tracer provider when no tracer is given', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    trace.setGlobalTracerProvider(provider)
    try {
      instrumentOpenTelemetry(runtime)
      await runtime.execute(call('add', { a: 1, b: 1 }))
      expect(only('execute_tool add').instrumentationScope.name).toBe('qilin-tools')
    } finally {
      trace.disable()
    }
  })
})

const programs = {
  typescript: `const sum = await tools.add({ a: 2, b: 3 })
try { await tools.add({ a: 'two', b: 3 }) } catch {}
return sum`,
  python: `total = await tools.add(a=2, b=3)
try:
    await tools.add(a='two', b=3)
except ToolCallError:
    pass
return total`,
}

const ptcRuntimes: PtcRuntime[] = []
afterAll(async () => {
  await Promise.all(ptcRuntimes.map((runtime) => (runtime as { close?: () => unknown }).close?.()))
})

const pythonConfined = (): boolean => hasSystemPart('bubblewrap', 'OpenTelemetry spans of a Python code-mode program')

describe.each([
  ['typescript', (): boolean => true],
  ['python', pythonConfined],
] as const)('instrumentOpenTelemetry: a %s program', (language, available) => {
  it.skipIf(!available())('makes its sub-calls child spans of the run_code span', async () => {
    const ptcRuntime = language === 'typescript' ? createNodePtcRuntime() : createPythonPtcRuntime()
    ptcRuntimes.push(ptcRuntime)
    const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime })
    runtime.register(add)
    instrumentOpenTelemetry(runtime, { tracer })
    const { value, host } = await insideHostSpan(() =>
      runtime.execute({ id: 'prog-1', name: 'run_code', arguments: { code: programs[language], description: 'sum' } }),
    )
    expect(value).toMatchObject({ ok: true, value: 5 })
    const program = only('execute_tool run_code')
    expect(parentOf(program)).toBe(host.spanContext().spanId)
    expect(program.attributes['gen_ai.tool.call.id']).toBe('prog-1')
    expect(program.attributes['qilin.ptc.sub_calls']).toBe(2)
    const subCalls = named('execute_tool add')
    expect(subCalls).toHaveLength(2)
    for (const sub of subCalls) {
      expect(parentOf(sub)).toBe(program.spanContext().spanId)
      expect(sub.spanContext().traceId).toBe(host.spanContext().traceId)
      expect(sub.attributes['qilin.tool.parent_call.id']).toBe('prog-1')
    }
    expect(subCalls.map((sub) => sub.attributes['error.type'])).toEqual([undefined, 'INVALID_ARGUMENTS'])
    expect(subCalls.map((sub) => sub.attributes['gen_ai.tool.call.id'])).toEqual(['prog-1:ptc:1', 'prog-1:ptc:2'])
  })
})

describe('instrumentOpenTelemetry: calls that share an id', () => {
  it('gives each its own span and ends them in the order they settle', async () => {
    const runtime = createToolRuntime()
    runtime.register(wait)
    instrumentOpenTelemetry(runtime, { tracer })
    await Promise.all([
      runtime.execute(call('wait', { ms: 30 }, 'same')),
      runtime.execute(call('wait', { ms: 10 }, 'same')),
      runtime.execute(call('wait', { ms: 20 }, 'same')),
    ])
    const finished = named('execute_tool wait')
    expect(finished).toHaveLength(3)
    expect(new Set(finished.map((span) => span.spanContext().spanId)).size).toBe(3)
  })
})

describe('instrumentOpenTelemetry: a tracer that records nothing', () => {
  /** The API's own tracer with no SDK registered, counting the spans asked of it. */
  function countingNoopTracer() {
    const noop = trace.getTracer('no-sdk')
    const started: string[] = []
    const counting: Tracer = {
      startSpan: (name, options, parent) => {
        started.push(name)
        return noop.startSpan(name, options, parent)
      },
      startActiveSpan: noop.startActiveSpan.bind(noop) as Tracer['startActiveSpan'],
    }
    return { tracer: counting, started }
  }

  it('asks for one span per call, keeps the caller’s span active in the body, and keeps nothing after', async () => {
    const { tracer: noopTracer, started } = countingNoopTracer()
    const runtime = createToolRuntime()
    let seenInBody: string | undefined
    runtime.register(
      toolWith('probe', async () => {
        seenInBody = trace.getActiveSpan()?.spanContext().spanId
        return 'ok'
      }),
    )
    const instrumentation = instrumentOpenTelemetry(runtime, { tracer: noopTracer })
    const { value, host } = await insideHostSpan(async () => [
      await runtime.execute(call('probe', {}, 'probe-1')),
      await runtime.execute(call('missing', {}, 'missing-1')),
    ])
    expect(value.map((result) => result.ok)).toEqual([true, false])
    // The refused call never reached the listeners: its span is made when it settles, once.
    expect(started).toEqual(['execute_tool probe', 'execute_tool missing'])
    expect(seenInBody).toBe(host.spanContext().spanId)
    instrumentation.dispose()
  })
})
