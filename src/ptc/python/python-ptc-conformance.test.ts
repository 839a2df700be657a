import { describePtcConformance } from '../ptc-conformance.js'
import { pythonConformancePrograms } from './__fixtures__/python-conformance-programs.js'
import { createPythonPtcRuntime } from './create-python-ptc-runtime.js'

describePtcConformance('python (CPython, fully confined)', () => createPythonPtcRuntime(), pythonConformancePrograms)
