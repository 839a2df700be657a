import { readFileSync } from 'node:fs'

/** What a probe saw of the host's own thread while it ran. */
export interface HostHealth {
  /** The longest a probe tick came late, by the wall clock (other processes share the cores). */
  readonly lagMaxMs: number
  /** The same, capped by the CPU time the main thread spent meanwhile: what the host's own work waited. */
  readonly lagBusyMs: number
  readonly rssPeakMb: number
  /** The most host timers (`Timeout` resources) alive at one tick, the probe's own included. */
  readonly timersPeak: number
}

const PROBE_MS = 5
const MB = 1024 * 1024
const TICK_MS = 10

/** Resident set size of this process, in MB. */
export const residentMb = (): number => process.memoryUsage().rss / MB

/** CPU time of the main thread alone: sandboxes on threads of their own are not counted. */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS
}

/** Starts a 5 ms probe of event-loop lag, RSS and live timers; `stop()` ends it and says what it saw. */
export function startHealthProbe(): { stop(): HostHealth } {
  let lagMaxMs = 0
  let lagBusyMs = 0
  let rssPeakMb = residentMb()
  let timersPeak = 0
  let expected = performance.now() + PROBE_MS
  let cpu = mainThreadCpuMs()
  const probe = setInterval(() => {
    const now = performance.now()
    const spent = mainThreadCpuMs() - cpu
    cpu += spent
    const lag = now - expected
    lagMaxMs = Math.max(lagMaxMs, lag)
    lagBusyMs = Math.max(lagBusyMs, Math.min(lag, spent))
    expected = now + PROBE_MS
    rssPeakMb = Math.max(rssPeakMb, residentMb())
    timersPeak = Math.max(timersPeak, process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length)
  }, PROBE_MS)
  return {
    stop() {
      clearInterval(probe)
      return { lagMaxMs, lagBusyMs, rssPeakMb, timersPeak }
    },
  }
}
