// `qilin-tools/ptc`: what every code-mode runtime shares, without loading one (no isolated-vm, no Python).
// Named exports only.

export { type PtcFailure, PtcFailureKind } from './failure-kinds.js'
export { type PtcFailureFacts, ptcFailureText } from './failure-text.js'
export { defaultPtcLimits, type PtcLimits } from './ptc-limits.js'
