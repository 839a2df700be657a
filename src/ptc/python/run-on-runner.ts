import type { JsonValue } from '../../json-schema/json-value.js'
import { PtcFailureKind } from '../failure-kinds.js'
import { ptcFailure } from '../failure-text.js'
import { ProgramHost, type ProgramRunResult } from '../program-host.js'
import type { HostMessage } from '../program-messages.js'
import type { PtcLimits } from '../ptc-limits.js'
import type { PtcRunRequest } from '../ptc-port.js'
import { toolAttributes } from './python-names.js'
import type { RunnerProcess } from './runner-process.js'

export type RunnerRunResult = ProgramRunResult

/** How long past its own deadline the runner gets to report before the host kills its process group. */
const killGraceMs = 500

/**
 * Runs one program on a ready runner: the Python side of the one program protocol. The runner's JSON lines go to
 * `ProgramHost` as they are (the runner writes the same messages as the isolate's prelude); this adds only what a
 * process brings: the start message, the kill, and how an exit without a last message is worded.
 */
export function runOnRunner(
  runner: RunnerProcess,
  request: PtcRunRequest,
  options: { readonly limits: PtcLimits; readonly timeoutMs: number },
): Promise<RunnerRunResult> {
  const { limits, timeoutMs } = options
  const host = new ProgramHost(
    { send: (message) => runner.send(toRunner(message)), stop: () => runner.kill() },
    request,
    {
      limits,
      timeoutMs,
      deadlineGraceMs: killGraceMs,
    },
  )
  if (host.decided) return host.result
  runner.listen((message) => host.receive(message), {
    maxArgumentBytes: limits.maxArgumentBytes,
    refuse: (id, name) => host.oversizedCall(id, name),
  })
  void runner.exited.then(({ code, signal }) => {
    if (host.decided) return
    if (signal === 'SIGXCPU') return host.fail(ptcFailure(PtcFailureKind.DEADLINE, { timeoutMs }))
    const problem = runner.protocolProblem
    if (problem !== undefined) return host.fail(ptcFailure(PtcFailureKind.PROTOCOL, { problem }))
    const how = signal === null ? `exit code ${code}` : `signal ${signal}`
    const what = `the Python runner stopped unexpectedly (${how})`
    const seen = runner.hostProblem
    const stderr = runner.stderr
    host.fail(
      ptcFailure(
        PtcFailureKind.SANDBOX,
        seen !== undefined ? { what: `${what}: ${seen}` } : stderr === '' ? { what } : { what, diagnostics: stderr },
      ),
    )
  })
  runner.send({ t: 'start', code: request.code, tools: toolEntries(request.toolNames), timeoutMs })
  return host.result
}

/** The runner reads results as JSON lines; it needs no pre-rendered text. */
function toRunner(message: HostMessage) {
  if (message.t !== 'result' || !message.ok) return message
  const { json: _json, ...rest } = message
  return rest
}

/** `[name, attribute or null]` for each tool: the spellings the SDK shows. */
function toolEntries(names: readonly string[]): JsonValue {
  const attributes = toolAttributes(names)
  return names.map((name) => [name, attributes.get(name) ?? null])
}
