// `qilin-tools/testing`: what a third-party `ToolStore` runs in its own tests to behave as ours do (needs `vitest`).
// Named exports only.

export {
  describeToolStoreConformance,
  pendingApproval,
  type ToolStoreConformanceOptions,
} from '../approvals/store-conformance.js'
