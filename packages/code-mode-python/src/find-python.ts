import { execFileSync } from 'node:child_process'

/** A CPython the runtime can run programs with, as it reported itself (shims resolved). */
export interface PythonInterpreter {
  /** The real executable (`os.path.realpath(sys.executable)`), never a shell shim. */
  readonly executable: string
  readonly version: string
  /** The standard library directory. */
  readonly stdlib: string
  /** The kernel's Landlock ABI version, 0 when Landlock is absent or disabled. */
  readonly landlockAbi: number
}

export const minimumPythonVersion = [3, 11] as const

/** Tried in order when the host names no interpreter: Debian's system Python first, then PATH. */
const defaultCandidates = ['/usr/bin/python3', 'python3.13', 'python3.12', 'python3.11', 'python3']

const probe = `
import json, os, sys
info = {'executable': os.path.realpath(sys.executable), 'version': list(sys.version_info[:3]), 'stdlib': os.path.dirname(os.__file__)}
try:
    import ctypes
    info['landlock'] = max(0, ctypes.CDLL(None).syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1)))
except Exception:
    info['landlock'] = 0
print(json.dumps(info))
`

/**
 * Finds a CPython 3.11 or newer: `explicit` when given, else the first working default candidate.
 * Each candidate is asked for its own real executable, so `python3` may be a pyenv shim.
 */
export function findPython(explicit?: string): PythonInterpreter | { readonly problem: string } {
  const candidates = explicit === undefined ? defaultCandidates : [explicit]
  const problems: string[] = []
  for (const candidate of candidates) {
    const found = askInterpreter(candidate)
    if ('executable' in found) return found
    problems.push(`${candidate}: ${found.problem}`)
  }
  return { problem: `no CPython ${minimumPythonVersion.join('.')} or newer found (${problems.join('; ')})` }
}

function askInterpreter(command: string): PythonInterpreter | { problem: string } {
  let text: string
  try {
    text = execFileSync(command, ['-c', probe], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
  } catch (error) {
    return { problem: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : 'did not run' }
  }
  try {
    const info = JSON.parse(text) as {
      executable: string
      version: number[]
      stdlib: string
      landlock: number
    }
    const [major = 0, minor = 0] = info.version
    if (major < minimumPythonVersion[0] || (major === minimumPythonVersion[0] && minor < minimumPythonVersion[1])) {
      return { problem: `version ${info.version.join('.')} is too old` }
    }
    return {
      executable: info.executable,
      version: info.version.join('.'),
      stdlib: info.stdlib,
      landlockAbi: info.landlock,
    }
  } catch {
    return { problem: 'did not answer the probe' }
  }
}
