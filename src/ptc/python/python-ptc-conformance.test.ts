import { describePtcConformance } from '../ptc-conformance.js'
import { createPythonPtcRuntime } from './create-python-ptc-runtime.js'
import { pythonConformancePrograms } from './python-conformance-programs.js'

describePtcConformance('python (CPython, fully confined)', () => createPythonPtcRuntime(), pythonConformancePrograms)
