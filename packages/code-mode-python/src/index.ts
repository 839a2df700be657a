// `@qilin-tools/code-mode-python`: Python code mode in a confined runner process (bubblewrap, Landlock, seccomp, rlimits).
// Named exports only.

export {
  type ConfinementLayer,
  type ConfinementProfile,
  ConfinementUnavailableError,
  confinementLayers,
  isConfinementUnavailableError,
} from './confinement.js'
export {
  createPythonPtcRuntime,
  type PythonPtcRuntime,
  type PythonPtcRuntimeOptions,
} from './create-python-ptc-runtime.js'
export type { PythonInterpreter } from './find-python.js'
export { renderPythonSdk } from './render-python-sdk.js'
