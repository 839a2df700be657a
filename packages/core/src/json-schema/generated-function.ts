import { thrownMessage } from '../errors/thrown-message.js'

/**
 * Hosts that forbid code generation from strings throw an EvalError from `new Function`: a browser page whose
 * Content-Security-Policy lacks 'unsafe-eval', edge runtimes, `node --disallow-code-generation-from-strings`.
 * Such a host cannot start allowing it later, so the first refusal is remembered.
 */
let forbidden = false

/** Whether this host has refused code generation from strings (then the closure tree validates alone). */
export function codeGenerationForbidden(): boolean {
  return forbidden
}

/**
 * `new Function(...parameters, body)`, or undefined where the host forbids code generation. Any other error
 * means the generated source is wrong: that is a bug, thrown as one, never a silent switch to the closure tree.
 */
export function functionFromSource<Compiled>(parameters: readonly string[], body: string): Compiled | undefined {
  if (forbidden) return undefined
  try {
    return new Function(...parameters, body) as Compiled
  } catch (error) {
    if (error instanceof EvalError) {
      forbidden = true
      return undefined
    }
    const reason = thrownMessage(error)
    throw new Error(
      `qilin-tools generated validator source that does not compile (${reason}); this is a bug, please report ` +
        'it with the schema. Compiling with codegen: false validates without generated code.',
      { cause: error },
    )
  }
}
