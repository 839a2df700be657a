import { PtcFailureKind } from '@qilin-tools/code-mode/internal/failure-kinds.js'
import { ptcFailure } from '@qilin-tools/code-mode/internal/failure-text.js'
import { ProgramHost, type ProgramRunResult } from '@qilin-tools/code-mode/internal/program-host.js'
import type { HostMessage } from '@qilin-tools/code-mode/internal/program-messages.js'
import type { PtcLimits } from '@qilin-tools/code-mode/internal/ptc-limits.js'
import type { PtcRunRequest } from '@qilin-tools/code-mode/internal/ptc-port.js'
import type ivm from 'isolated-vm'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import { HostOutbox } from './host-outbox.js'
import { disposeSandbox, type PreparedSandbox } from './isolate-pool.js'

export type SandboxRunResult = ProgramRunResult

/** Callbacks into one run inside the isolate, for measuring it. */
export interface SandboxRunHooks {
  /** The program's first statement is about to run. */
  readonly started?: () => void
}

/**
 * Runs one stripped program in a prepared sandbox: the isolated-vm side of the one program protocol. It carries
 * JSON text across the isolate boundary and nothing else; `ProgramHost` checks, counts and answers every message,
 * and the isolate is disposed when the run is decided, whatever decides it.
 */
export function runInSandbox(
  sandbox: PreparedSandbox,
  javascript: string,
  request: PtcRunRequest,
  options: { readonly limits: PtcLimits; readonly timeoutMs: number; readonly hooks?: SandboxRunHooks },
): Promise<SandboxRunResult> {
  const { limits } = options
  const outbox = new HostOutbox(
    (text) => {
      try {
        sandbox.deliver.applyIgnored(undefined, [text])
      } catch {
        // The isolate is gone; whatever disposed it decides the run.
      }
    },
    () => host.callsRunning === 0,
  )
  const host: ProgramHost = new ProgramHost(
    {
      send: (message) => outbox.add(messageText(message)),
      stop: () => {
        sandbox.channel.receive = () => {}
        sandbox.channel.exchange = async () => ''
        outbox.close()
        // The isolate's thread is usually still finishing the task that sent the end; disposing it now would wait
        // for that on the main thread (about 0.2 ms) before the result is handed back. Nothing it does can reach
        // the host any more, and it is gone on the next turn whatever it is running.
        setImmediate(() => disposeSandbox(sandbox))
      },
    },
    request,
    {
      limits,
      timeoutMs: options.timeoutMs,
      ...(options.hooks?.started === undefined ? {} : { started: options.hooks.started }),
    },
  )
  if (host.decided) return host.result
  // No message the prelude writes comes near this (each field is capped below it), and it never joins messages
  // into a batch past it; a longer batch is refused unread.
  const maxMessageLength = 6 * Math.max(limits.maxArgumentBytes, limits.maxResultBytes, limits.maxOutputBytes) + 4096
  const receiveOne = (text: string) => {
    let message: unknown
    try {
      message = JSON.parse(text)
    } catch {
      return host.malformed('a message that is not JSON')
    }
    host.receive(message, text.length)
  }
  const receive = (batch: string) => {
    if (batch.length > maxMessageLength) return host.malformed(`a message over ${maxMessageLength} characters`)
    let from = 0
    for (let end = batch.indexOf('\n'); end !== -1 && !host.decided; end = batch.indexOf('\n', from)) {
      receiveOne(batch.slice(from, end))
      from = end + 1
    }
    if (!host.decided) receiveOne(from === 0 ? batch : batch.slice(from))
  }
  sandbox.channel.receive = receive
  sandbox.channel.exchange = (batch) => {
    receive(batch)
    return outbox.answer()
  }
  const settings = JSON.stringify({
    toolNames: request.toolNames,
    limits: { ...limits, maxBatchLength: maxMessageLength },
  })
  startProgram(sandbox, javascript, settings).catch((error: unknown) => {
    if (!host.decided) host.fail(classifyStartError(error, sandbox))
  })
  return host.result
}

/**
 * A host message as the prelude reads it. A successful result, the message of every sequential call, is the pair
 * `[id, value]`: the value is the host's JSON text spliced in unparsed, and the isolate parses no keys for it (the
 * callId stays in the record; the prelude reads one only from a failure). Every other message is its object.
 */
function messageText(message: HostMessage): string {
  return message.t === 'result' && message.ok ? `[${message.id},${message.json}]` : JSON.stringify(message)
}

/** Compiles and evaluates the program's function in one visit to the isolate's thread, then starts it. */
async function startProgram(sandbox: PreparedSandbox, javascript: string, settings: string): Promise<void> {
  const program = (await sandbox.context.eval(`(async function () { 'use strict';\n${javascript}\n})`, {
    filename: 'program.ts',
    lineOffset: -1,
    reference: true,
  })) as ivm.Reference<unknown>
  await sandbox.start.apply(undefined, [program.derefInto(), settings], { result: { promise: true } })
}

function classifyStartError(error: unknown, sandbox: PreparedSandbox) {
  const message = thrownMessage(error)
  if (/memory limit/i.test(message)) return ptcFailure(PtcFailureKind.MEMORY)
  if (error instanceof SyntaxError) return ptcFailure(PtcFailureKind.SYNTAX, { detail: message })
  if (sandbox.isolate.isDisposed) return ptcFailure(PtcFailureKind.MEMORY)
  return ptcFailure(PtcFailureKind.SANDBOX, { what: `the sandbox failed to run the program: ${message}` })
}
