import { type PtcFailure, PtcFailureKind } from './failure-kinds.js'
import { ptcFailure } from './failure-text.js'
import type { ProgramReport } from './program-messages.js'
import type { PtcLimits } from './ptc-limits.js'

interface HostFacts {
  readonly limits: PtcLimits
  readonly timeoutMs: number
}

/**
 * The kinds a program's side may report about itself, each worded from the host's facts: only `runtime` and `syntax`
 * keep the program's text (marked as its words). Any other kind is not the program's to claim.
 */
const reportedKinds: Readonly<Record<string, (facts: HostFacts, message: string) => PtcFailure>> = {
  [PtcFailureKind.SYNTAX]: (_facts, message) => ptcFailure(PtcFailureKind.SYNTAX, { detail: message }),
  [PtcFailureKind.RUNTIME]: (_facts, message) => ptcFailure(PtcFailureKind.RUNTIME, { thrown: message }),
  [PtcFailureKind.DEADLINE]: (facts) => ptcFailure(PtcFailureKind.DEADLINE, { timeoutMs: facts.timeoutMs }),
  [PtcFailureKind.MEMORY]: () => ptcFailure(PtcFailureKind.MEMORY),
  [PtcFailureKind.OUTPUT_LIMIT]: (facts) => ptcFailure(PtcFailureKind.OUTPUT_LIMIT, facts.limits),
  [PtcFailureKind.RESULT_LIMIT]: (facts) => ptcFailure(PtcFailureKind.RESULT_LIMIT, facts.limits),
  [PtcFailureKind.SUB_CALL_LIMIT]: (facts) => ptcFailure(PtcFailureKind.SUB_CALL_LIMIT, facts.limits),
  [PtcFailureKind.INPUT_BUDGET]: (facts) => ptcFailure(PtcFailureKind.INPUT_BUDGET, facts.limits),
  [PtcFailureKind.TIMER_LIMIT]: (facts) => ptcFailure(PtcFailureKind.TIMER_LIMIT, facts.limits),
}

/** The failure a program's report stands for, or undefined when its kind is not one a program may report. */
export function reportedFailure(report: ProgramReport, facts: HostFacts): PtcFailure | undefined {
  return Object.hasOwn(reportedKinds, report.kind) ? reportedKinds[report.kind]!(facts, report.message) : undefined
}
