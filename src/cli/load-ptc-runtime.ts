import { resolve } from 'node:path'
import type { PtcLanguage, PtcRuntime } from '../ptc/ptc-port.js'
import type { SandboxEscalation } from '../sandbox/sandbox-escalation.js'
import type { LoadedConfig } from './config.js'

/**
 * Imported on demand: the TypeScript runtime pulls in the type stripper and the isolate, Python a child process.
 * A single run builds its sandbox on demand; a server keeps the runtime's default pool warm. The config's
 * `escalation` entry, when present, is what an approved `require_escalated` run gets (and makes it offered).
 */
export async function loadPtcRuntime(
  language: PtcLanguage,
  loaded: LoadedConfig,
  runs: 'one' | 'many',
): Promise<PtcRuntime> {
  const limits = loaded.config.limits ?? {}
  const escalation = escalationProfile(loaded)
  const options = {
    ...(limits.timeoutMs === undefined ? {} : { limits: { defaultTimeoutMs: limits.timeoutMs } }),
    ...(escalation === undefined ? {} : { escalation }),
    ...(runs === 'one' ? { poolSize: 0 } : {}),
  }
  if (language === 'python') {
    const { createPythonPtcRuntime } = await import('../ptc/python/index.js')
    return createPythonPtcRuntime(options)
  }
  const { createNodePtcRuntime } = await import('../ptc/node/index.js')
  return createNodePtcRuntime(options)
}

/** The config's `escalation` entry with its paths resolved against the config file's directory. */
export function escalationProfile(loaded: LoadedConfig): SandboxEscalation | undefined {
  const escalation = loaded.config.escalation
  if (escalation === undefined) return undefined
  return {
    ...(escalation.network === undefined ? {} : { network: escalation.network }),
    ...(escalation.writablePaths === undefined
      ? {}
      : { writablePaths: escalation.writablePaths.map((path) => resolve(loaded.directory, path)) }),
  }
}
