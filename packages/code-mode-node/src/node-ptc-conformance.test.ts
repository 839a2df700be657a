import { describePtcConformance } from '@qilin-tools/code-mode/internal/ptc-conformance.js'
import { typeScriptConformancePrograms } from './__fixtures__/typescript-conformance-programs.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'

describePtcConformance('node (TypeScript)', () => createNodePtcRuntime({ poolSize: 1 }), typeScriptConformancePrograms)
