import type { PtcConformancePrograms } from '@qilin-tools/code-mode/internal/ptc-conformance.js'

/** The shared conformance programs in TypeScript. */
export const typeScriptConformancePrograms: PtcConformancePrograms = {
  printAndReturn: `console.log('hello')\nreturn { answer: 42 }`,
  silent: `const nothing: null = null`,
  printThenThrow: `console.log('before')\nthrow new Error('boom')`,
  busyLoop: `while (true) {}`,
  callAdd: `return await tools.add({ a: 2, b: 3 })`,
  catchFailure: `try { await tools.fail({}) } catch (error) {
  if (error instanceof ToolCallError) return [error.toolName, error.code, error.callId]
  throw error
}`,
  invalidArguments: `try { await tools.add({ a: 'two', b: 3 } as never) } catch (error) { return (error as ToolCallError).code }`,
  deniedCall: `try { await tools.guarded({}) } catch (error) { return (error as ToolCallError).code }`,
  askedCall: `return await tools.approved_action({})`,
  printThenAsk: `console.log('first')\nconsole.log('second')\nreturn await tools.approved_action({})`,
  overlappingSteps: `return await Promise.all(Array.from({ length: 20 }, (_, n) => tools.step({ n })))`,
  overlappingPeeks: `return await Promise.all(Array.from({ length: 8 }, (_, n) => tools.peek({ n })))`,
  hasSecretBinding: `return 'secret' in tools`,
  imageCall: `await tools.snapshot({})\nreturn 'taken'`,
  callLinger: `return await tools.linger({})`,
  printPastLimit: `for (let n = 0; n < 200; n++) console.log('x'.repeat(1000))`,
  returnPastLimit: `return 'x'.repeat(200_000)`,
  callPastLimit: `for (let n = 0; n < 1001; n++) await tools.add({ a: 1, b: 1 })`,
  argumentsPastLimit: `try { await tools.add({ a: 'x'.repeat(2_000_000) as never, b: 1 }) } catch (error) { return (error as Error).message }`,
}
