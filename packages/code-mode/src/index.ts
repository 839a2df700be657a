// `@qilin-tools/code-mode`: what every code-mode runtime shares, with no runtime loaded (no isolated-vm, no Python).
// The runtimes are `@qilin-tools/code-mode-node` and `@qilin-tools/code-mode-python`. Named exports only.

export { codeModeRuntime } from './code-mode.js'
export { type PtcFailure, PtcFailureKind } from './failure-kinds.js'
export { type PtcFailureFacts, ptcFailureText } from './failure-text.js'
export { defaultPtcLimits, type PtcLimits } from './ptc-limits.js'
export {
  type ProgramOutputLine,
  type PtcIndexEntry,
  type PtcLanguage,
  type PtcPresentation,
  type PtcRunFailure,
  type PtcRunMetadata,
  type PtcRunOutcome,
  type PtcRunRequest,
  type PtcRunSuccess,
  type PtcRuntime,
  type PtcRuntimeParts,
  type PtcToolIndex,
  type PtcToolView,
  RUN_CODE_TOOL_NAME,
  type SandboxPermissions,
} from './ptc-port.js'
export { renderTypeScriptSdk } from './ts-sdk/render-typescript-sdk.js'
