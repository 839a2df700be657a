// `@qilin-tools/code-mode-node`: TypeScript code mode on Node, in isolated-vm (run Node with `--no-node-snapshot`).

export { PtcFailureKind } from '@qilin-tools/code-mode/internal/failure-kinds.js'
export { defaultPtcLimits, type PtcLimits } from '@qilin-tools/code-mode/internal/ptc-limits.js'
export { createNodePtcRuntime, type NodePtcRuntime, type NodePtcRuntimeOptions } from './create-node-ptc-runtime.js'
export type { SandboxRunHooks } from './run-in-sandbox.js'
