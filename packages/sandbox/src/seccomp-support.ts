import { readFileSync } from 'node:fs'
import { architectureFor } from './seccomp-filter.js'
import { isSeccompFilterError } from './seccomp-filter-error.js'

/** What a host operator can do when the seccomp filter cannot be loaded here. */
export const seccompRemedy =
  'run on Linux 4.14 or newer on x86_64 or arm64, with seccomp filters enabled (CONFIG_SECCOMP_FILTER=y)'

/** The filter's returns the kernel must offer (`SECCOMP_RET_KILL_PROCESS` came in Linux 4.14). */
const neededActions = ['kill_process', 'errno', 'allow']

/**
 * Why this host cannot load the generated filter, or undefined when it can. Reads the kernel's list of seccomp
 * actions (`/proc/sys/kernel/seccomp/actions_avail`, present with CONFIG_SECCOMP_FILTER); where `/proc/sys` is not
 * mounted, the `Seccomp:` line of `/proc/self/status` says at least that the kernel has seccomp.
 */
export function seccompUnavailable(
  paths: { readonly actions: string; readonly status: string } = {
    actions: '/proc/sys/kernel/seccomp/actions_avail',
    status: '/proc/self/status',
  },
): string | undefined {
  if (process.platform !== 'linux') return `seccomp is a Linux feature, not available on ${process.platform}`
  try {
    architectureFor(process.arch)
  } catch (error) {
    if (isSeccompFilterError(error)) return error.message
    throw error
  }
  const actions = readText(paths.actions)
  if (actions !== undefined) {
    const offered = actions.trim().split(/\s+/)
    const absent = neededActions.filter((action) => !offered.includes(action))
    return absent.length === 0 ? undefined : `the kernel's seccomp offers no ${absent.join(', ')} action`
  }
  const status = readText(paths.status)
  if (status !== undefined && /^Seccomp:\s*\d/m.test(status)) return undefined
  return 'the kernel reports no seccomp support (no Seccomp: line in /proc/self/status)'
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}
