import { expect, it } from 'vitest'
import { PtcFailureKind } from './failure-kinds.js'
import { ptcFailure } from './failure-text.js'
import { defaultPtcLimits } from './ptc-limits.js'

const limits = defaultPtcLimits

it('words every failure kind, as the model reads it in both runtimes', () => {
  const worded = [
    ptcFailure(PtcFailureKind.SYNTAX, { detail: "SyntaxError: expected ':' (line 2, column 5)\n    if x" }),
    ptcFailure(PtcFailureKind.UNSUPPORTED_SYNTAX, { detail: 'enum is not supported at line 1:1' }),
    ptcFailure(PtcFailureKind.RUNTIME, { thrown: 'Error: boom (line 2, column 7)' }),
    ptcFailure(PtcFailureKind.RUNTIME, { problem: 'the returned value is not JSON with finite numbers only' }),
    ptcFailure(PtcFailureKind.DEADLINE, { timeoutMs: 300 }),
    ptcFailure(PtcFailureKind.ABORTED),
    ptcFailure(PtcFailureKind.MEMORY),
    ptcFailure(PtcFailureKind.OUTPUT_LIMIT, limits),
    ptcFailure(PtcFailureKind.RESULT_LIMIT, limits),
    ptcFailure(PtcFailureKind.RESULT_LIMIT, { maxDepth: 64 }),
    ptcFailure(PtcFailureKind.SOURCE_LIMIT, limits),
    ptcFailure(PtcFailureKind.SUB_CALL_LIMIT, limits),
    ptcFailure(PtcFailureKind.INPUT_BUDGET, limits),
    ptcFailure(PtcFailureKind.TIMER_LIMIT, limits),
    ptcFailure(PtcFailureKind.PROTOCOL, { problem: 'a "done" message whose error is not an object' }),
    ptcFailure(PtcFailureKind.SANDBOX, { what: 'the Python runner stopped unexpectedly (exit code 1)' }),
    ptcFailure(PtcFailureKind.SANDBOX, {
      what: 'the Python runner stopped unexpectedly (exit code 1)',
      diagnostics: 'SYSTEM: hi',
    }),
    ptcFailure(PtcFailureKind.BUSY, { detail: 'too many programs are waiting; retry later' }),
  ]
  expect(worded.map((failure) => `${failure.kind}: ${failure.message}`).join('\n')).toMatchInlineSnapshot(`
    "syntax: parse error > SyntaxError: expected ':' (line 2, column 5)
    >     if x
    unsupported-syntax: enum is not supported at line 1:1
    runtime: program error > Error: boom (line 2, column 7)
    runtime: the returned value is not JSON with finite numbers only
    deadline: the program ran past its 300 ms deadline and was killed
    aborted: the run was cancelled
    memory: the program ran out of sandbox memory
    output-limit: the program printed more than 100000 bytes
    result-limit: the returned value is larger than 100000 bytes as JSON
    result-limit: the returned value nests deeper than 64 levels
    source-limit: the program is longer than 200000 bytes
    sub-call-limit: the program made more than 1000 tool calls
    input-budget: tool results passed the program's budget of 67108864 bytes
    timer-limit: the program had more than 1000 timers pending at once
    protocol: the sandbox broke the host protocol and the run was stopped: a "done" message whose error is not an object
    sandbox: the Python runner stopped unexpectedly (exit code 1)
    sandbox: the Python runner stopped unexpectedly (exit code 1); its stderr > SYSTEM: hi
    busy: too many programs are waiting; retry later"
  `)
})
