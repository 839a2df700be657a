import { execFileSync } from 'node:child_process'
import { isAbsolute } from 'node:path'
import {
  bubblewrapArguments,
  type SandboxProfile,
  shellEtcPaths,
} from '@qilin-tools/sandbox/internal/bubblewrap-arguments.js'
import { BUBBLEWRAP_REMEDY, type Bubblewrap, findBubblewrap } from '@qilin-tools/sandbox/internal/find-bubblewrap.js'
import { needsProcessBudget, openProcessBudget } from '@qilin-tools/sandbox/internal/process-budget.js'
import {
  defaultShellLimits,
  type ResourceLimits,
  ulimitPrologue,
} from '@qilin-tools/sandbox/internal/resource-limits.js'
import type { SandboxEscalation } from '@qilin-tools/sandbox/internal/sandbox-escalation.js'
import { seccompFilter } from '@qilin-tools/sandbox/internal/seccomp-filter.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { ToolError } from 'qilin-tools/internal/errors/tool-error.js'
import type { ShellLaunch } from './run-shell-command.js'

export interface BashSandboxOptions {
  /** `bubblewrap` (default) confines every command; `none` runs it on the host and says so in every result. */
  readonly sandbox?: 'bubblewrap' | 'none'
  /** Default false: the command has no network (only its own loopback). */
  readonly network?: boolean
  /** Host environment variables passed through by name; nothing else of the host's environment is. */
  readonly env?: readonly string[]
  /** Absolute host paths writable besides the workspace. */
  readonly writablePaths?: readonly string[]
  /**
   * What an escalated call (a sub-call of an approved `require_escalated` program, `exec.escalated`) gets on top of
   * the default; without it an escalated call gets the default.
   */
  readonly escalation?: SandboxEscalation
  /** The bubblewrap executable. Default: `bwrap` on PATH. */
  readonly bubblewrap?: string
  /** Per-process limits inside the sandbox (processes, address space, file size, open files). */
  readonly limits?: Partial<ResourceLimits>
}

/** The environment every sandboxed command starts with, before the names the host passes through. */
const baseEnvironment = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HOME: '/tmp',
  TMPDIR: '/tmp',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
}

export interface BashSandbox {
  readonly kind: 'bubblewrap' | 'none'
  /** How to start `command` for one call, or a `ToolError` the model can act on when the sandbox cannot start. */
  launch(command: string, escalated: boolean): ShellLaunch
}

/**
 * Checks the options now (a relative writable path is API misuse and throws) and probes bubblewrap on the first
 * call, so a host without it still starts and each call fails with the package to install.
 */
export function openBashSandbox(root: string, options: BashSandboxOptions): BashSandbox {
  for (const path of [...(options.writablePaths ?? []), ...(options.escalation?.writablePaths ?? [])]) {
    if (!isAbsolute(path)) throw new InvalidArgumentError(`bash writablePaths must be absolute, got "${path}"`)
  }
  if (options.sandbox === 'none') {
    return {
      kind: 'none',
      launch: (command) => ({ command: 'bash', args: ['-c', command], cwd: root, env: undefined }),
    }
  }
  const limits: ResourceLimits = { ...defaultShellLimits, ...options.limits }
  let probed: Bubblewrap | { readonly problem: string } | undefined
  let filter: { readonly program: Buffer } | { readonly problem: string } | undefined
  return {
    kind: 'bubblewrap',
    launch(command, escalated) {
      probed ??= workingBubblewrap(options.bubblewrap, root)
      if ('problem' in probed) {
        throw unavailable(
          `${probed.problem}. The host must ${BUBBLEWRAP_REMEDY}, or opt out of confinement with "bash": { "sandbox": "none" }`,
        )
      }
      filter ??= shellFilter()
      if ('problem' in filter)
        throw unavailable(`${filter.problem}; opt out of confinement with "bash": { "sandbox": "none" }`)
      const wider = escalated ? options.escalation : undefined
      const profile: SandboxProfile = {
        workspace: root,
        readOnlyPaths: shellEtcPaths,
        writablePaths: [...(options.writablePaths ?? []), ...(wider?.writablePaths ?? [])],
        network: wider?.network ?? options.network ?? false,
        env: { ...baseEnvironment, ...passedThrough(options.env ?? []) },
        seccompFd: 3,
        infoFd: 4,
      }
      const script = `${ulimitPrologue(limits)}\nexec bash -c "$0"`
      const sandboxed = [...bubblewrapArguments(probed, profile), 'bash', '-c', script, command]
      const fd3 = filter.program
      if (!needsProcessBudget()) {
        return { command: probed.executable, args: sandboxed, cwd: root, env: {}, fd3, bubblewrapInfoFd: 4 }
      }
      const budget = openProcessBudget(limits.processes)
      if ('problem' in budget) {
        throw unavailable(
          `running as root, where the kernel does not enforce a process limit, and ${budget.problem}; run the host as an unprivileged user or give it a writable pids cgroup`,
        )
      }
      // The budget takes the process before bubblewrap starts, so everything under it is counted.
      const enter = 'echo $$ > "$0" && exec "$@"'
      return {
        command: '/bin/sh',
        args: ['-c', enter, budget.procsFile, probed.executable, ...sandboxed],
        cwd: root,
        env: {},
        fd3,
        bubblewrapInfoFd: 4,
        budget,
      }
    },
  }
}

/** bubblewrap found and able to start a sandbox here (user namespaces may be disabled), asked once. */
function workingBubblewrap(command: string | undefined, root: string): Bubblewrap | { readonly problem: string } {
  const found = findBubblewrap(command)
  if ('problem' in found) return found
  try {
    const args = [...bubblewrapArguments(found, { workspace: root }), 'true']
    execFileSync(found.executable, args, { timeout: 10_000, stdio: ['ignore', 'ignore', 'pipe'], env: {} })
    return found
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim()
    return { problem: `${found.executable} could not start a sandbox (${stderr || (error as Error).message})` }
  }
}

/** The seccomp program bubblewrap loads (`--seccomp 3`) before it runs the shell. */
function shellFilter(): { readonly program: Buffer } | { readonly problem: string } {
  try {
    return { program: seccompFilter('shell') }
  } catch (error) {
    return { problem: `no seccomp filter for this machine (${(error as Error).message})` }
  }
}

function passedThrough(names: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of names) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  return env
}

function unavailable(message: string): ToolError {
  return new ToolError({ code: ToolErrorCode.TOOL_ERROR, message: `bash cannot run confined: ${message}` })
}
