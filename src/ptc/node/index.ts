export { createNodePtcRuntime, type NodePtcRuntime, type NodePtcRuntimeOptions } from './create-node-ptc-runtime.js'
