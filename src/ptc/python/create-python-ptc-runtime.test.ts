import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { ConfinementUnavailableError } from './confinement.js'
import { createPythonPtcRuntime, type PythonPtcRuntime } from './create-python-ptc-runtime.js'

/** The fully confined runtime needs bubblewrap; the start-up refusals below do not. */
const confined = hasSystemPart('bubblewrap', 'the Python PTC runtime')
let runtime: PythonPtcRuntime
beforeAll(() => {
  if (!confined) return
  runtime = createPythonPtcRuntime({
    poolSize: 2,
    limits: { maxOutputBytes: 2_000, maxResultBytes: 1_000, maxSourceBytes: 5_000, maxSubCalls: 3, maxInputBytes: 500 },
  })
})
afterAll(() => runtime?.close())

function textOf(outcome: PtcRunOutcome): string {
  return outcome.ok
    ? outcome.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    : outcome.error.message
}

describe.skipIf(!confined)('running a program', () => {
  it('runs it as a module: dataclasses, typing and top-level await and return', async () => {
    const code = `from __future__ import annotations
from dataclasses import dataclass, asdict
import typing

@dataclass
class Point:
    x: int
    y: int = 0

hints = typing.get_type_hints(Point)
await asyncio.sleep(0)
if True:
    return {'point': asdict(Point(1)), 'hints': sorted(hints), 'module': Point.__module__, 'name': Point.__qualname__}`
    const outcome = await runtime.run(fakeRunRequest(code))
    expect(outcome.ok && outcome.value).toEqual({
      point: { x: 1, y: 0 },
      hints: ['x', 'y'],
      module: '__program__',
      name: 'Point',
    })
  })

  it('shows only the program frames, with the line numbers the model wrote', async () => {
    const code = `import json

def parse(text):
    return json.loads(text)

print('about to fail')
parse('{not json')`
    const outcome = await runtime.run(fakeRunRequest(code))
    expect(textOf(outcome)).toMatchInlineSnapshot(`
      "code run failed (runtime): program error > json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)
      > Traceback (most recent call last):
      >   File "<program>", line 7, in <module>
      >     parse('{not json')
      >   File "<program>", line 4, in parse
      >     return json.loads(text)
      >            ^^^^^^^^^^^^^^^^
      Captured output:
      about to fail"
    `)
  })

  it('reports a syntax error with its line', async () => {
    const outcome = await runtime.run(fakeRunRequest('x = 1\nif x\n    pass'))
    expect(textOf(outcome)).toMatchInlineSnapshot(`
      "code run failed (syntax): parse error > SyntaxError: expected ':' (line 2, column 5)
      >     if x
      >         ^"
    `)
  })

  it('passes keyword arguments and returns results; ToolCallError carries the failure', async () => {
    const code = `total = await tools.add(a=2, b=3)
try:
    await tools.broken()
except ToolCallError as error:
    return [total, error.tool_name, error.code, error.call_id]`
    const request = fakeRunRequest(code, {
      add: (args) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b,
      broken: () => {
        throw new Error('nope')
      },
    })
    const outcome = await runtime.run(request)
    expect(outcome.ok && outcome.value).toEqual([5, 'broken', 'TOOL_ERROR', 'call-1:ptc:2'])
    expect(request.calls).toEqual([
      { name: 'add', args: { a: 2, b: 3 } },
      { name: 'broken', args: {} },
    ])
  })

  it('refuses positional arguments, NaN and integers past 2**53 before they reach the host', async () => {
    const code = `problems = []
for call in (lambda: tools.echo(1), lambda: tools.echo(x=float('nan')), lambda: tools.echo(x=2**60)):
    try:
        await call()
    except (TypeError, ValueError) as error:
        problems.append(type(error).__name__)
return problems`
    const request = fakeRunRequest(code, { echo: (args) => args })
    const outcome = await runtime.run(request)
    expect(outcome.ok && outcome.value).toEqual(['TypeError', 'ValueError', 'ValueError'])
    expect(request.calls).toEqual([])
  })

  it('refuses a returned value that is not lossless JSON', async () => {
    expect(textOf(await runtime.run(fakeRunRequest('return {1, 2}')))).toMatch(
      /^code run failed \(runtime\): program error > .*set/,
    )
    expect(textOf(await runtime.run(fakeRunRequest(`return float('inf')`)))).toMatch(/^code run failed \(runtime\): /)
  })

  it('runs several programs at once, each in its own process', async () => {
    const code = (index: number) =>
      `import os\nopen('/tmp/mine', 'a').write('${index}')\nreturn [${index}, open('/tmp/mine').read()]`
    const outcomes = await Promise.all([0, 1, 2, 3].map((index) => runtime.run(fakeRunRequest(code(index)))))
    expect(outcomes.map((outcome) => outcome.ok && outcome.value)).toEqual(
      [0, 1, 2, 3].map((index) => [index, `${index}`]),
    )
  })

  it('reaches a tool with an odd name by subscript and by its underscore spelling', async () => {
    const code = `return [await tools['get-sum'](a=1, b=2), await tools.get_sum(a=3, b=4)]`
    const sum = (args: unknown) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b
    const outcome = await runtime.run(fakeRunRequest(code, { 'get-sum': sum }))
    expect(outcome.ok && outcome.value).toEqual([3, 7])
  })
})

describe.skipIf(!confined)('the channel', () => {
  it('carries a tool argument as large as the limit (1 MiB of JSON text; past it, python-argument-limit.test.ts)', async () => {
    const request = fakeRunRequest(`return await tools.measure(text='x' * ((1 << 20) - 11))`, {
      measure: (args) => (args as { text: string }).text.length,
    })
    const outcome = await runtime.run(request)
    expect(outcome.ok && outcome.value).toBe((1 << 20) - 11)
  })

  it('ends the run when the program floods the channel with one endless line', async () => {
    const outcome = await runtime.run(fakeRunRequest(`import os\nwhile True:\n    os.write(3, b'x' * (1 << 20))`))
    expect(textOf(outcome)).toMatch(
      /^code run failed \(protocol\): the sandbox broke the host protocol and the run was stopped: the runner sent a message over \d+ bytes/,
    )
  })
})

describe.skipIf(!confined)('limits, each its own failure kind', () => {
  it('deadline: keeps the output printed before it', async () => {
    const outcome = await runtime.run(fakeRunRequest(`print('started')\nwhile True:\n    pass`, {}, { timeoutMs: 300 }))
    expect(textOf(outcome)).toMatchInlineSnapshot(`
      "code run failed (deadline): the program ran past its 300 ms deadline and was killed
      Captured output:
      started"
    `)
  })

  it('deadline: also while waiting on a tool that never answers', async () => {
    const request = fakeRunRequest(
      `return await tools.stall()`,
      { stall: () => new Promise(() => {}) },
      { timeoutMs: 300 },
    )
    expect(textOf(await runtime.run(request))).toMatch(/^code run failed \(deadline\): /)
  })

  it('deadline: a program that swallows the deadline exception is killed by the host', async () => {
    const code = `while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass`
    const outcome = await runtime.run(fakeRunRequest(code, {}, { timeoutMs: 300 }))
    expect(textOf(outcome)).toMatch(/^code run failed \(deadline\): .*killed/)
  })

  it('aborted: the caller cancels', async () => {
    const controller = new AbortController()
    const pending = runtime.run(fakeRunRequest('while True:\n    pass', {}, { signal: controller.signal }))
    setTimeout(() => controller.abort(), 100)
    expect(textOf(await pending)).toBe('code run failed (aborted): the run was cancelled')
  })

  it('output-limit: printed output over the cap, counted inside the runner', async () => {
    const outcome = await runtime.run(fakeRunRequest(`for n in range(10000):\n    print('line', n)`))
    const text = textOf(outcome)
    expect(text).toMatch(
      /^code run failed \(output-limit\): the program printed more than 2000 bytes\nCaptured output:\nline 0\n/,
    )
    // The runner stops at the cap and keeps exactly the bytes that fit.
    expect(text.slice(text.indexOf('line 0')).length).toBe(2000)
  })

  it('result-limit, source-limit, sub-call-limit and input-budget', async () => {
    const result = await runtime.run(fakeRunRequest(`return 'x' * 5000`))
    expect(textOf(result)).toMatch(/^code run failed \(result-limit\): /)
    const source = await runtime.run(fakeRunRequest(`# ${'x'.repeat(6000)}`))
    expect(textOf(source)).toMatch(/^code run failed \(source-limit\): /)
    const calls = await runtime.run(fakeRunRequest(`for n in range(5):\n    await tools.ping()`, { ping: () => 1 }))
    expect(textOf(calls)).toMatch(/^code run failed \(sub-call-limit\): /)
    const input = await runtime.run(fakeRunRequest(`await tools.big()`, { big: () => 'y'.repeat(600) }))
    expect(textOf(input)).toMatch(/^code run failed \(input-budget\): /)
  })

  it('stays healthy across 20 kills in a row', async () => {
    for (let round = 0; round < 20; round++) {
      const outcome = await runtime.run(fakeRunRequest('while True:\n    pass', {}, { timeoutMs: 50 }))
      expect(textOf(outcome)).toMatch(/^code run failed \(deadline\): /)
    }
    const after = await runtime.run(fakeRunRequest('return 42'))
    expect(after.ok && after.value).toBe(42)
  })
})

describe('starting up', () => {
  it('refuses to start without a required layer, naming it and how to install it', () => {
    expect(() => createPythonPtcRuntime({ bubblewrap: '/nonexistent/bwrap', poolSize: 0 })).toThrow(
      ConfinementUnavailableError,
    )
    expect(() => createPythonPtcRuntime({ bubblewrap: '/nonexistent/bwrap', poolSize: 0 })).toThrow(
      /bubblewrap: \/nonexistent\/bwrap is not installed; install bubblewrap \(Debian\/Ubuntu: apt-get install bubblewrap\)/,
    )
  })

  it('refuses to start without a usable interpreter', () => {
    expect(() => createPythonPtcRuntime({ python: '/nonexistent/python3', poolSize: 0 })).toThrow(
      /refuses to start: no CPython 3\.11 or newer found \(\/nonexistent\/python3: not found\)/,
    )
  })

  it('runs with the layers that work under a partial profile, and says so in every result', async () => {
    const partial = createPythonPtcRuntime({ bubblewrap: '/nonexistent/bwrap', confinement: 'partial', poolSize: 0 })
    try {
      expect(partial.confinement.layers).toEqual(['landlock', 'seccomp', 'rlimits'])
      const outcome = await partial.run(fakeRunRequest('return 1'))
      expect(outcome.metadata.sandbox).toEqual({ profile: 'partial', layers: ['landlock', 'seccomp', 'rlimits'] })
    } finally {
      await partial.close()
    }
  })

  it('runs unconfined only when asked to, and says so in every result', async () => {
    const unconfined = createPythonPtcRuntime({ confinement: 'none', poolSize: 0 })
    try {
      const outcome = await unconfined.run(fakeRunRequest('import os\nreturn os.path.isdir("/etc")'))
      expect(outcome.ok && outcome.value).toBe(true)
      expect(outcome.metadata.sandbox).toEqual({ profile: 'none', layers: [] })
    } finally {
      await unconfined.close()
    }
  })

  it.skipIf(!confined)(
    'gives an escalated run, and only that run, the writable paths of the escalation profile',
    async () => {
      const extra = realpathSync(mkdtempSync(join(tmpdir(), 'qilin-python-escalation-')))
      const wide = createPythonPtcRuntime({ poolSize: 1, escalation: { writablePaths: [extra] } })
      const write = `open(${JSON.stringify(join(extra, 'note.txt'))}, 'w').write('wrote')\nreturn 'done'`
      try {
        const plain = await wide.run(fakeRunRequest(write))
        expect(plain.ok).toBe(false)
        expect(textOf(plain)).toContain('No such file or directory')
        const escalated = await wide.run(fakeRunRequest(write, {}, { permissions: 'require_escalated' }))
        expect(escalated.ok && escalated.value).toBe('done')
        expect(readFileSync(join(extra, 'note.txt'), 'utf8')).toBe('wrote')
        const after = await wide.run(fakeRunRequest(write))
        expect(after.ok).toBe(false)
        expect(wide.present([], 'ptc').runCode.parameters.properties?.sandbox_permissions).toBeDefined()
        expect(runtime.present([], 'ptc').runCode.parameters.properties?.sandbox_permissions).toBeUndefined()
      } finally {
        await wide.close()
        rmSync(extra, { recursive: true, force: true })
      }
    },
  )

  it.skipIf(!confined)('resolves the interpreter to a real executable, never a shim', () => {
    expect(runtime.interpreter.executable).toMatch(/python3\.\d+$/)
    expect(runtime.confinement.profile).toBe('full')
  })
})
