import type { PtcLanguage, PtcRuntime } from '../pipeline/ptc-port.js'
import type { ConfigLimits } from './config.js'

/**
 * Imported on demand: the TypeScript runtime pulls in the type stripper and the isolate, Python a child process.
 * A single run builds its sandbox on demand; a server keeps the runtime's default pool warm.
 */
export async function loadPtcRuntime(
  language: PtcLanguage,
  limits: ConfigLimits,
  runs: 'one' | 'many',
): Promise<PtcRuntime> {
  const overrides = limits.timeoutMs === undefined ? {} : { limits: { defaultTimeoutMs: limits.timeoutMs } }
  if (language === 'python') {
    const { createPythonPtcRuntime } = await import('../ptc/python/index.js')
    return createPythonPtcRuntime(runs === 'one' ? { ...overrides, poolSize: 0 } : overrides)
  }
  const { createNodePtcRuntime } = await import('../ptc/node/index.js')
  return createNodePtcRuntime(runs === 'one' ? { ...overrides, poolSize: 0 } : overrides)
}
