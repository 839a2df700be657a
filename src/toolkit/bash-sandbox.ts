import { execFileSync } from 'node:child_process'
import { isAbsolute } from 'node:path'
import { ToolErrorCode } from '../errors/error-codes.js'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import { ToolError } from '../errors/tool-error.js'
import {
  bubblewrapArguments,
  defaultShmBytes,
  type SandboxProfile,
  shellEtcPaths,
} from '../sandbox/bubblewrap-arguments.js'
import { inodesFor, openCappedMounts } from '../sandbox/capped-tmpfs.js'
import { BUBBLEWRAP_REMEDY, type Bubblewrap, findBubblewrap } from '../sandbox/find-bubblewrap.js'
import { defaultShellLimits, type ResourceLimits, ulimitPrologue } from '../sandbox/resource-limits.js'
import type { SandboxEscalation } from '../sandbox/sandbox-escalation.js'
import { seccompFilter } from '../sandbox/seccomp-filter.js'
import { openShellBudget } from '../sandbox/shell-budget.js'
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
  /**
   * The most one command may hold in all: its processes' memory, its `/tmp` and `/dev/shm` files and the kernel
   * memory they cause (inodes, page tables), counted by a memory cgroup where the host can make one (root, or a
   * delegated cgroup). Past it the kernel kills the command and the call fails. Elsewhere the per-process limits
   * and the sized `/tmp` and `/dev/shm` hold alone.
   * @default 2 GiB
   */
  readonly memoryBytes?: number
  /**
   * Size of the command's private `/tmp`, where bubblewrap can size it (0.8 and later).
   * @default 512 MiB
   */
  readonly tmpBytes?: number
}

const defaultMemoryBytes = 2 * 1024 * 1024 * 1024
const defaultTmpBytes = 512 * 1024 * 1024

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
  for (const field of ['memoryBytes', 'tmpBytes'] as const) {
    const value = options[field]
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1024 * 1024)) {
      throw new InvalidArgumentError(
        `bash ${field} must be a whole number of bytes, at least 1 MiB, got ${String(value)}`,
      )
    }
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
        tmpBytes: options.tmpBytes ?? defaultTmpBytes,
        shmBytes: defaultShmBytes,
        seccompFd: 3,
        infoFd: 4,
      }
      const script = `${ulimitPrologue(limits)}\nexec bash -c "$0"`
      const tmpBytes = options.tmpBytes ?? defaultTmpBytes
      const mounts = openCappedMounts(
        { bytes: tmpBytes, inodes: inodesFor(tmpBytes) },
        { bytes: defaultShmBytes, inodes: inodesFor(defaultShmBytes) },
      )
      // Where no namespace of our own can be made, bubblewrap's sized tmpfs mounts stand, their inodes uncapped.
      const capped: Partial<SandboxProfile> =
        'problem' in mounts
          ? {}
          : {
              tmpSource: mounts.tmpSource,
              shmSource: mounts.shmSource,
              identity: { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 },
            }
      const bubblewrap = [probed.executable, ...bubblewrapArguments(probed, { ...profile, ...capped })]
      const sandboxed = [...('problem' in mounts ? bubblewrap : mounts.wrap(bubblewrap)), 'bash', '-c', script, command]
      const cleanUp = 'problem' in mounts ? undefined : mounts.release
      const fd3 = filter.program
      const budget = openShellBudget(limits.processes, options.memoryBytes ?? defaultMemoryBytes)
      if (budget === undefined) {
        const [executable = probed.executable, ...args] = sandboxed
        return { command: executable, args, cwd: root, env: {}, fd3, bubblewrapInfoFd: 4, ...(cleanUp && { cleanUp }) }
      }
      if ('problem' in budget) {
        cleanUp?.()
        throw unavailable(
          `running as root, where the kernel does not enforce a process limit, and ${budget.problem}; run the host as an unprivileged user or give it a writable pids cgroup`,
        )
      }
      // The budget takes the process before bubblewrap starts, so everything under it is counted.
      return {
        command: '/bin/sh',
        args: ['-c', joinCommand(budget.procsFiles.length), ...budget.procsFiles, ...sandboxed],
        cwd: root,
        env: {},
        fd3,
        bubblewrapInfoFd: 4,
        budget,
        ...(cleanUp && { cleanUp }),
      }
    },
  }
}

/** A `sh -c` script that writes its own pid to each of its first `files` arguments, then runs the rest. */
function joinCommand(files: number): string {
  const writes = Array.from({ length: files }, (_, index) => `echo $$ > "$${index}"`)
  return [...writes, ...(files > 1 ? [`shift ${files - 1}`] : []), 'exec "$@"'].join(' && ')
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
