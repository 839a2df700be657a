import { describePtcConformance } from '@qilin-tools/code-mode/internal/ptc-conformance.js'
import { describe } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { pythonConformancePrograms } from './__fixtures__/python-conformance-programs.js'
import { createPythonPtcRuntime } from './create-python-ptc-runtime.js'

describe.skipIf(!hasSystemPart('bubblewrap', 'Python PTC conformance'))('python', () => {
  describePtcConformance('python (CPython, fully confined)', () => createPythonPtcRuntime(), pythonConformancePrograms)
})
