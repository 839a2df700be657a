import type { PtcLanguage, PtcRuntime } from '../pipeline/ptc-port.js'
import type { ConfigLimits } from './config.js'

/** Imported on demand: the TypeScript runtime pulls in the type stripper and the isolate, Python a child process. */
export async function loadPtcRuntime(language: PtcLanguage, limits: ConfigLimits): Promise<PtcRuntime> {
  const overrides = limits.timeoutMs === undefined ? {} : { limits: { defaultTimeoutMs: limits.timeoutMs } }
  if (language === 'python') {
    const { createPythonPtcRuntime } = await import('../ptc/python/index.js')
    return createPythonPtcRuntime(overrides)
  }
  const { createNodePtcRuntime } = await import('../ptc/node/index.js')
  return createNodePtcRuntime(overrides)
}
