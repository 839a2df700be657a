import type { PtcConformancePrograms } from '@qilin-tools/code-mode/internal/ptc-conformance.js'

/** The shared conformance programs in Python. */
export const pythonConformancePrograms: PtcConformancePrograms = {
  printAndReturn: `print('hello')\nreturn {'answer': 42}`,
  silent: `nothing = None`,
  printThenThrow: `print('before')\nraise RuntimeError('boom')`,
  busyLoop: `while True:\n    pass`,
  callAdd: `return await tools.add(a=2, b=3)`,
  catchFailure: `try:\n    await tools.fail()\nexcept ToolCallError as error:\n    return [error.tool_name, error.code, error.call_id]`,
  invalidArguments: `try:\n    await tools.add(a='two', b=3)\nexcept ToolCallError as error:\n    return error.code`,
  deniedCall: `try:\n    await tools.guarded()\nexcept ToolCallError as error:\n    return error.code`,
  askedCall: `return await tools.approved_action()`,
  printThenAsk: `print('first')\nprint('second')\nreturn await tools.approved_action()`,
  overlappingSteps: `return await asyncio.gather(*(tools.step(n=n) for n in range(20)))`,
  overlappingPeeks: `return list(await asyncio.gather(*(tools.peek(n=n) for n in range(8))))`,
  hasSecretBinding: `return 'secret' in tools`,
  imageCall: `await tools.snapshot()\nreturn 'taken'`,
  callLinger: `return await tools.linger()`,
  printPastLimit: `for n in range(200):\n    print('x' * 1000)`,
  returnPastLimit: `return 'x' * 200_000`,
  callPastLimit: `for n in range(1001):\n    await tools.add(a=1, b=1)`,
  argumentsPastLimit: `try:\n    await tools.add(a='x' * 2_000_000, b=1)\nexcept ToolCallError as error:\n    return error.message`,
}
