import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** How a host script run in its own process ended, and what it reported on its last stdout line. */
export interface ChildHostRun<Report> {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stderr: string
  /** The last stdout line parsed as JSON, when the host printed one. */
  readonly report: Report | undefined
  /** The highest RSS seen from outside (`/proc/<pid>/status`, sampled every 25 ms), in MB. */
  readonly watchedPeakMb: number
  /** The host passed `rssCeilingMb` and was killed for it. */
  readonly ceilingPassed: boolean
}

export interface ChildHostOptions {
  /** Node flags before `--import tsx` (e.g. `--expose-gc`, a heap size). */
  readonly nodeFlags?: readonly string[]
  /** Killed with SIGKILL past this. */
  readonly timeoutMs: number
  /** Killed with SIGKILL once its RSS passes this many MB. */
  readonly rssCeilingMb?: number
  /** The host's environment. @default this process's */
  readonly env?: NodeJS.ProcessEnv
}

function residentMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match === null ? undefined : Number(match[1]) / 1024
  } catch {
    return undefined
  }
}

/**
 * Runs a TypeScript host script in a process of its own, so a fatal error, a hang or a memory blow-up in it cannot
 * take the test worker down; resolves however it ends.
 */
export function runChildHost<Report>(
  script: string,
  args: readonly string[],
  options: ChildHostOptions,
): Promise<ChildHostRun<Report>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.env === undefined ? {} : { env: options.env }),
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
    })
    let stdout = ''
    let stderr = ''
    let watchedPeakMb = 0
    let ceilingPassed = false
    const watch = setInterval(() => {
      const resident = child.pid === undefined ? undefined : residentMb(child.pid)
      if (resident === undefined) return
      watchedPeakMb = Math.max(watchedPeakMb, resident)
      if (options.rssCeilingMb !== undefined && resident > options.rssCeilingMb && !ceilingPassed) {
        ceilingPassed = true
        child.kill('SIGKILL')
      }
    }, 25)
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    child.on('error', (error) => {
      clearInterval(watch)
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearInterval(watch)
      const line = stdout.trim().split('\n').pop() ?? ''
      const report = line.startsWith('{') ? (JSON.parse(line) as Report) : undefined
      resolve({ code, signal, stderr, report, watchedPeakMb, ceilingPassed })
    })
  })
}

/** The report of a host that must exit 0 having printed one; otherwise rejects naming `label` and its stderr. */
export async function childHostReport<Report>(
  label: string,
  script: string,
  args: readonly string[],
  options: ChildHostOptions,
): Promise<Report & { readonly watchedPeakMb: number }> {
  const run = await runChildHost<Report>(script, args, options)
  if (run.ceilingPassed) throw new Error(`${label}: the host passed ${options.rssCeilingMb} MB and was killed`)
  if (run.code !== 0 || run.report === undefined) {
    throw new Error(`${label}: host exited ${run.code ?? run.signal}: ${run.stderr.slice(0, 2000)}`)
  }
  return { ...run.report, watchedPeakMb: run.watchedPeakMb }
}
