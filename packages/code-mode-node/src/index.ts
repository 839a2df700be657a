// `qilin-tools/ptc/node`: TypeScript code mode on Node, in isolated-vm (needs `node --no-node-snapshot` on Node 20+).

export { PtcFailureKind } from '@qilin-tools/code-mode/internal/failure-kinds.js'
export { defaultPtcLimits, type PtcLimits } from '@qilin-tools/code-mode/internal/ptc-limits.js'
export { createNodePtcRuntime, type NodePtcRuntime, type NodePtcRuntimeOptions } from './create-node-ptc-runtime.js'
export type { SandboxRunHooks } from './run-in-sandbox.js'
