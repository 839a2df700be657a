import { describePtcConformance } from '../ptc-conformance.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'
import { typeScriptConformancePrograms } from './typescript-conformance-programs.js'

describePtcConformance('node (TypeScript)', () => createNodePtcRuntime({ poolSize: 1 }), typeScriptConformancePrograms)
