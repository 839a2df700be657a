// `@qilin-tools/code-mode`: what every code-mode runtime shares, with no runtime loaded (no isolated-vm, no Python).
// The runtimes are `@qilin-tools/code-mode-node` and `@qilin-tools/code-mode-python`.

export { type PtcFailure, PtcFailureKind } from './failure-kinds.js'
export { defaultPtcLimits, type PtcLimits } from './ptc-limits.js'
export { renderTypeScriptSdk } from './ts-sdk/render-typescript-sdk.js'
