import { expect, it } from 'vitest'
import * as nodePtc from './index.js'

it('pins the qilin-tools/ptc/node export list', () => {
  expect(Object.keys(nodePtc).sort()).toEqual(['PtcFailureKind', 'createNodePtcRuntime', 'defaultPtcLimits'])
})

it('pins the failure kinds', () => {
  expect(Object.values(nodePtc.PtcFailureKind)).toEqual([
    'syntax',
    'unsupported-syntax',
    'runtime',
    'deadline',
    'aborted',
    'memory',
    'output-limit',
    'result-limit',
    'source-limit',
    'sub-call-limit',
    'input-budget',
    'timer-limit',
    'protocol',
    'sandbox',
    'busy',
  ])
})
