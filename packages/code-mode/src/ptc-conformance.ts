import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import type { JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { Approver } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import type { ToolRuntime } from 'qilin-tools/internal/pipeline/tool-runtime.js'
import { createMemorySessionLog } from 'qilin-tools/internal/session-log/memory-session-log.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../../test/support/settled-result.js'
import { ptcFailureText } from './failure-text.js'
import { defaultPtcLimits } from './ptc-limits.js'
import type { PtcRuntime } from './ptc-port.js'
import { NO_OUTPUT_TEXT } from './render-outer-result.js'
import { subCallRefusalText } from './sub-call-refusals.js'

/**
 * The programs the shared suite runs, written in the runtime's own language. Each entry says what the
 * program must do; the tools named are registered by the suite.
 */
export interface PtcConformancePrograms {
  /** Print the line `hello`, then return `{ "answer": 42 }`. */
  readonly printAndReturn: string
  /** Do nothing: no output, no returned value. */
  readonly silent: string
  /** Print `before`, then raise an error whose message contains `boom`. */
  readonly printThenThrow: string
  /** Loop forever without awaiting. */
  readonly busyLoop: string
  /** Return the result of `add` with `{ a: 2, b: 3 }`. */
  readonly callAdd: string
  /** Call `fail` with `{}`, catch the ToolCallError and return `[toolName, code, callId]`. */
  readonly catchFailure: string
  /** Call `add` with `{ a: "two", b: 3 }`, catch the ToolCallError and return its code. */
  readonly invalidArguments: string
  /** Call `guarded` with `{}`, catch the ToolCallError and return its code. */
  readonly deniedCall: string
  /** Return the result of `approved_action` with `{}`. */
  readonly askedCall: string
  /** Print the lines `first` and `second`, then return the result of `approved_action` with `{}`. */
  readonly printThenAsk: string
  /** Start `step` with `{ n: i }` for i from 0 to 19 all at once, wait for all, return the results in order. */
  readonly overlappingSteps: string
  /** Start `peek` with `{ n: i }` for i from 0 to 7 all at once, wait for all, return the results. */
  readonly overlappingPeeks: string
  /** Return whether a binding named `secret` exists on `tools` (a boolean). */
  readonly hasSecretBinding: string
  /** Call `snapshot` with `{}` and return `'taken'`. Optional: the image test is skipped without it. */
  readonly imageCall?: string
  /** Return the result of `linger` with `{}` (its body ignores cancellation for 300 ms). */
  readonly callLinger: string
  /** Print 200 lines of 1,000 `x` each: past the default 100,000-byte output cap. */
  readonly printPastLimit: string
  /** Return a string of 200,000 `x`: past the default 100,000-byte result cap. */
  readonly returnPastLimit: string
  /** Call `add` with `{ a: 1, b: 1 }` 1,001 times, one after another: past the default 1,000-call cap. */
  readonly callPastLimit: string
  /** Call `add` with `a` a string of 2,000,000 `x`, catch the ToolCallError or error and return its message. */
  readonly argumentsPastLimit: string
}

const snapshotImage = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } as const
const snapshotSound = { type: 'audio', data: 'UklGRiYAAAA=', mimeType: 'audio/wav' } as const
const snapshotBlob = { type: 'resource', resource: { uri: 'file:///raw.bin', blob: 'AAAA' } } as const
/** Text can hold this one: the program reads it through the value, and it is not attached. */
const snapshotNote = { type: 'resource', resource: { uri: 'file:///note.txt', text: 'a note' } } as const

interface Harness {
  runtime: ToolRuntime
  ptc: PtcRuntime
  log: ReturnType<typeof createMemorySessionLog>
  approvals: { resolve: (approved: boolean) => void; asked: boolean }[]
  bodies: { name: string; args: JsonValue }[]
  events: string[]
}

function program(code: string, id = 'outer', timeoutMs?: number) {
  const args: Record<string, JsonValue> = { code, description: 'conformance program' }
  if (timeoutMs !== undefined) args.timeoutMs = timeoutMs
  return { id, name: 'run_code', arguments: args }
}

function textOf(result: ToolResult): string {
  return result.content
    .map((part) => (part.type === 'text' ? part.text : `[${'mimeType' in part ? part.mimeType : part.type}]`))
    .join('')
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The contract every code-mode runtime meets, run through the real pipeline: the outer result, failure
 * kinds, sub-call ids and log records, validation, denial, approval, scheduling and the callable surface.
 */
export function describePtcConformance(
  label: string,
  makeRuntime: () => PtcRuntime,
  programs: PtcConformancePrograms,
): void {
  describe(`PTC conformance: ${label}`, () => {
    const harness = {} as Harness

    beforeAll(() => {
      harness.ptc = makeRuntime()
      harness.log = createMemorySessionLog()
      harness.approvals = []
      harness.bodies = []
      harness.events = []
      const approve: Approver = () =>
        new Promise<boolean>((resolve) => harness.approvals.push({ resolve, asked: true }))
      harness.runtime = createToolRuntime({
        mode: 'ptc',
        ptcRuntime: harness.ptc,
        sessionLog: harness.log,
        approve,
        maxParallelSubCalls: 3,
      })
      registerTools(harness)
    })
    afterAll(() => harness.ptc.close())

    it('renders printed lines then the returned value', async () => {
      const result = await harness.runtime.execute(program(programs.printAndReturn))
      expect(result.ok).toBe(true)
      expect(textOf(result)).toBe('hello\n{"answer":42}')
      expect(expectSuccess(result).value).toEqual({ answer: 42 })
    })

    it('says so when a program neither prints nor returns', async () => {
      expect(textOf(await harness.runtime.execute(program(programs.silent)))).toBe(NO_OUTPUT_TEXT)
    })

    it('renders a failure with its kind and the captured output', async () => {
      const result = await harness.runtime.execute(program(programs.printThenThrow))
      expect(result.ok).toBe(false)
      expect(expectFailure(result).error.code).toBe('CODE_RUN_FAILED')
      const text = textOf(result)
      expect(text).toMatch(/^Error: code run failed \(runtime\): program error > .*boom/)
      expect(text.endsWith('\nCaptured output:\nbefore')).toBe(true)
    })

    it('kills a program at its deadline', async () => {
      const result = await harness.runtime.execute(program(programs.busyLoop, 'outer', 300))
      expect(textOf(result)).toMatch(/^Error: code run failed \(deadline\): /)
    })

    it('runs sub-calls through the pipeline with <parent>:ptc:<n> ids and logs them without schemas', async () => {
      harness.log.clear()
      const result = await harness.runtime.execute(program(programs.callAdd, 'run-ids'))
      expect(expectSuccess(result).value).toBe(5)
      const sub = harness.log.records.filter((record) => record.id === 'run-ids:ptc:1')
      expect(sub.map((record) => record.type)).toEqual(['tool.call.started', 'tool.call.settled'])
      expect(sub[0]).toMatchObject({ name: 'add', arguments: { a: 2, b: 3 }, parentId: 'run-ids' })
      expect(sub[1]).toMatchObject({ ok: true, parentId: 'run-ids' })
      const logged = JSON.stringify(harness.log.records)
      expect(logged).not.toContain('Adds two numbers')
      expect(logged).not.toContain('"properties"')
      const outer = harness.log.records.find((record) => record.id === 'run-ids' && record.type === 'tool.call.settled')
      expect(outer?.type === 'tool.call.settled' && outer.metadata).toEqual({ subCalls: 1, bytesKeptOut: 1 })
    })

    it('rejects a failed sub-call with a catchable ToolCallError', async () => {
      const result = await harness.runtime.execute(program(programs.catchFailure, 'run-fail'))
      expect(expectSuccess(result).value).toEqual(['fail', 'TOOL_ERROR', 'run-fail:ptc:1'])
    })

    it('validates sub-call arguments before the tool body runs', async () => {
      harness.bodies.length = 0
      const result = await harness.runtime.execute(program(programs.invalidArguments))
      expect(expectSuccess(result).value).toBe('INVALID_ARGUMENTS')
      expect(harness.bodies).toEqual([])
    })

    it('applies guards to sub-calls', async () => {
      expect(expectSuccess(await harness.runtime.execute(program(programs.deniedCall))).value).toBe('DENIED')
    })

    it('suspends an asked sub-call until the approver answers, and runs it once', async () => {
      harness.bodies.length = 0
      harness.approvals.length = 0
      const pending = harness.runtime.execute(program(programs.askedCall, 'run-ask'))
      while (harness.approvals.length === 0) await sleep(5)
      await sleep(20)
      expect(harness.bodies).toEqual([])
      harness.approvals[0]?.resolve(true)
      const result = await pending
      expect(expectSuccess(result).value).toBe('approved once')
      expect(harness.bodies.filter((body) => body.name === 'approved_action')).toHaveLength(1)
    })

    it('shows each printed line to output watchers as it is printed, before the program ends', async () => {
      harness.approvals.length = 0
      const seen: { callId: string; line: string }[] = []
      const watching = harness.ptc.onProgramOutput(({ callId, line }) => {
        seen.push({ callId, line })
        throw new Error('a watcher that throws changes nothing')
      })
      try {
        const pending = harness.runtime.execute(program(programs.printThenAsk, 'run-print'))
        while (harness.approvals.length === 0) await sleep(5)
        // The program is suspended on its approval: what it printed before has been shown already.
        expect(seen).toEqual([
          { callId: 'run-print', line: 'first' },
          { callId: 'run-print', line: 'second' },
        ])
        harness.approvals[0]?.resolve(true)
        const result = await pending
        expect(textOf(result)).toBe('first\nsecond\napproved once')
      } finally {
        watching.dispose()
      }
      await harness.runtime.execute(program(programs.printAndReturn, 'run-unwatched'))
      expect(seen.map(({ line }) => line)).toEqual(['first', 'second'])
    })

    it('kills a program at its deadline while a sub-call waits for approval', async () => {
      harness.bodies.length = 0
      harness.approvals.length = 0
      const result = await harness.runtime.execute(program(programs.askedCall, 'run-ask-late', 300))
      expect(textOf(result)).toMatch(/^Error: code run failed \(deadline\): /)
      expect(harness.approvals).toHaveLength(1)
      expect(harness.bodies).toEqual([])
    })

    it('runs 20 overlapping calls to an exclusive tool one at a time, in submission order', async () => {
      harness.events.length = 0
      const result = await harness.runtime.execute(program(programs.overlappingSteps))
      expect(expectSuccess(result).value).toEqual(Array.from({ length: 20 }, (_, n) => n * 10))
      const expected = Array.from({ length: 20 }, (_, n) => [`start ${n}`, `end ${n}`]).flat()
      expect(harness.events.filter((event) => /^(start|end) /.test(event))).toEqual(expected)
    })

    it('overlaps read-only calls up to maxParallelSubCalls', async () => {
      harness.events.length = 0
      const result = await harness.runtime.execute(program(programs.overlappingPeeks))
      expect(expectSuccess(result).value).toEqual(Array.from({ length: 8 }, (_, n) => n))
      let active = 0
      let peak = 0
      for (const event of harness.events) {
        active += event.startsWith('peek-start') ? 1 : -1
        peak = Math.max(peak, active)
      }
      expect(peak).toBe(3)
    })

    it('binds only the tools the scope can see, and ptc mode refuses direct calls', async () => {
      const agent = harness.runtime.agent(`${label}-restricted`)
      agent.restrict({ deny: ['secret'] })
      expect(expectSuccess(await agent.execute(program(programs.hasSecretBinding))).value).toBe(false)
      expect(expectSuccess(await harness.runtime.execute(program(programs.hasSecretBinding))).value).toBe(true)
      const direct = await harness.runtime.execute({ id: 'direct', name: 'add', arguments: { a: 1, b: 2 } })
      expect(expectFailure(direct).error.code).toBe('UNKNOWN_TOOL')
    })

    it.skipIf(programs.imageCall === undefined)(
      'attaches what a program cannot print from a sub-call (images, audio, binary resources) after the outer result',
      async () => {
        const result = await harness.runtime.execute(program(programs.imageCall ?? '', 'run-image'))
        expect(expectSuccess(result).value).toBe('taken')
        expect(textOf(result)).toBe('taken')
        expect(result.contexts).toEqual([
          {
            source: { toolName: 'snapshot', callId: 'run-image:ptc:1' },
            content: [snapshotImage, snapshotSound, snapshotBlob],
          },
        ])
      },
    )

    it('words every limit from the one failure-text table, the same in every runtime', async () => {
      const head = (kind: string, text: string) => `Error: code run failed (${kind}): ${text}`
      const limits = defaultPtcLimits
      const printed = textOf(await harness.runtime.execute(program(programs.printPastLimit)))
      expect(printed.split('\n')[0]).toBe(head('output-limit', ptcFailureText['output-limit'](limits)))
      expect(textOf(await harness.runtime.execute(program(programs.returnPastLimit)))).toBe(
        head('result-limit', ptcFailureText['result-limit'](limits)),
      )
      expect(textOf(await harness.runtime.execute(program(programs.callPastLimit)))).toBe(
        head('sub-call-limit', ptcFailureText['sub-call-limit'](limits)),
      )
      expect(textOf(await harness.runtime.execute(program(programs.busyLoop, 'outer', 300)))).toBe(
        head('deadline', ptcFailureText.deadline({ timeoutMs: 300 })),
      )
      expect(expectSuccess(await harness.runtime.execute(program(programs.argumentsPastLimit))).value).toBe(
        subCallRefusalText.tooLarge(limits.maxArgumentBytes),
      )
    }, 30_000)

    it('settles a cancelled run only after its sub-calls settled, their log records first', async () => {
      for (const end of ['abort', 'deadline'] as const) {
        harness.log.clear()
        harness.events.length = 0
        const controller = new AbortController()
        const id = `run-linger-${end}`
        const call = program(programs.callLinger, id, end === 'deadline' ? 150 : undefined)
        const pending = harness.runtime.execute(call, { signal: controller.signal })
        while (!harness.events.includes('linger-start')) await sleep(5)
        if (end === 'abort') controller.abort()
        const result = await pending
        harness.events.push('outer-settled')
        expect(textOf(result)).toMatch(end === 'abort' ? /\(aborted\)|ABORTED|cancel/i : /\(deadline\)/)
        expect(harness.events).toEqual(['linger-start', 'linger-end', 'outer-settled'])
        const settled = harness.log.records.filter((record) => record.type === 'tool.call.settled')
        expect(settled.map((record) => record.id)).toEqual([`${id}:ptc:1`, id])
      }
    })

    it('presents run_code alone under ptc and beside the native schemas under both', () => {
      const ptc = harness.runtime.prompt()
      expect(ptc.tools.map((tool) => tool.name)).toEqual(['run_code'])
      expect(ptc.sections.map((section) => [section.id, section.interpolate])).toEqual([
        ['tools:ptc-only', false],
        ['tools:sdk', false],
      ])
      const both = harness.runtime.agent(`${label}-both`)
      both.presentAs('both')
      const prompt = both.prompt()
      expect(prompt.tools.map((tool) => tool.name)).toContain('add')
      expect(prompt.tools.map((tool) => tool.name)).toContain('run_code')
      expect(prompt.sections.map((section) => section.id)).toEqual(['tools:sdk'])
    })
  })
}

function registerTools(harness: Harness): void {
  const { runtime } = harness
  const body = (name: string, args: JsonValue) => harness.bodies.push({ name, args })
  runtime.register(
    defineTool({
      name: 'add',
      description: 'Adds two numbers',
      parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
      output: { schema: { type: 'number' } },
      execute: (args) => {
        body('add', args)
        return args.a + args.b
      },
    }),
  )
  runtime.register(
    defineTool({
      name: 'fail',
      description: 'Always fails',
      parameters: {},
      execute: () => {
        body('fail', {})
        throw new Error('failing on purpose')
      },
    }),
  )
  runtime.register(
    defineTool({ name: 'guarded', description: 'Denied by a guard', parameters: {}, execute: () => 'ran' }),
  )
  runtime.guard((call) => (call.name === 'guarded' ? 'not allowed here' : undefined))
  runtime.register(
    defineTool({
      name: 'approved_action',
      description: 'Needs approval',
      parameters: {},
      execute: () => {
        body('approved_action', {})
        return 'approved once'
      },
    }),
  )
  runtime.on('tools/pre-execute', (event) =>
    event.call.name === 'approved_action' ? { action: 'ask', reason: 'check with the user' } : undefined,
  )
  runtime.register(
    defineTool({
      name: 'step',
      description: 'An exclusive step',
      parameters: { n: { type: 'integer', required: true } },
      executionMode: 'exclusive',
      execute: async (args) => {
        harness.events.push(`start ${args.n}`)
        await sleep(1)
        harness.events.push(`end ${args.n}`)
        return args.n * 10
      },
    }),
  )
  runtime.register(
    defineTool({
      name: 'peek',
      description: 'A read-only peek',
      parameters: { n: { type: 'integer', required: true } },
      executionMode: 'parallel',
      execute: async (args) => {
        harness.events.push(`peek-start ${args.n}`)
        await sleep(10)
        harness.events.push(`peek-end ${args.n}`)
        return args.n
      },
    }),
  )
  runtime.register(
    defineTool({
      name: 'snapshot',
      description: 'Takes a picture',
      parameters: {},
      output: {
        schema: { type: 'object', properties: { saved: { type: 'boolean', required: true } } },
        render: () => [snapshotImage, snapshotNote, snapshotSound, snapshotBlob],
      },
      execute: () => ({ saved: true }),
    }),
  )
  runtime.register(
    defineTool({ name: 'secret', description: 'Hidden from restricted agents', parameters: {}, execute: () => 's' }),
  )
  runtime.register(
    defineTool({
      name: 'linger',
      description: 'Ignores cancellation for a while',
      parameters: {},
      execute: async () => {
        harness.events.push('linger-start')
        await sleep(300)
        harness.events.push('linger-end')
        return 'lingered'
      },
    }),
  )
}
