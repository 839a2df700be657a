import { execFileSync } from 'node:child_process'
import { accessSync, constants, existsSync, lstatSync, readlinkSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { seccompRemedy, seccompUnavailable } from '../../sandbox/seccomp-support.js'
import type { PythonInterpreter } from './find-python.js'

/** The confinement layers, outermost first. Each is applied and tested on its own. */
export const confinementLayers = ['bubblewrap', 'landlock', 'seccomp', 'rlimits'] as const
export type ConfinementLayer = (typeof confinementLayers)[number]

/**
 * `full` (default) refuses to start unless every layer works here; `partial` uses the layers that work;
 * `none` runs programs unconfined. Anything short of `full` is stated in every run's metadata.
 */
export type ConfinementProfile = 'full' | 'partial' | 'none'

/** What to do when a layer is missing, in words a host operator can act on. */
const remedies = {
  bubblewrap: 'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow unprivileged user namespaces',
  landlock: 'use Linux 5.13 or newer with Landlock enabled (CONFIG_SECURITY_LANDLOCK=y and "landlock" in lsm=)',
  seccomp: seccompRemedy,
  rlimits: 'run on Linux',
} satisfies Record<ConfinementLayer, string>

/** A bubblewrap executable and whether it can cap the size of its tmpfs (`--size`, bubblewrap 0.8+). */
export interface Bubblewrap {
  readonly executable: string
  readonly sizedTmpfs: boolean
}

export interface ConfinementPlan {
  readonly profile: ConfinementProfile
  readonly layers: readonly ConfinementLayer[]
  /** The bubblewrap executable, when that layer is in use. */
  readonly bubblewrap: Bubblewrap | undefined
  /** Why each unused layer could not be used (empty under `full`). */
  readonly missing: Readonly<Partial<Record<ConfinementLayer, string>>>
}

export class ConfinementUnavailableError extends Error {
  constructor(missing: Readonly<Partial<Record<ConfinementLayer, string>>>) {
    const lines = Object.entries(missing).map(
      ([layer, problem]) => `- ${layer}: ${problem}; ${remedies[layer as ConfinementLayer]}`,
    )
    super(
      `The Python PTC runtime refuses to start: not every confinement layer works here.\n${lines.join('\n')}\n` +
        "Fix the above, or opt into a weaker sandbox with confinement: 'partial' (or 'none').",
    )
    this.name = 'ConfinementUnavailableError'
  }
}

/** Which layers work on this host for this interpreter, and why the others do not. */
export function probeLayers(
  interpreter: PythonInterpreter,
  bubblewrapCommand: string | undefined,
): { available: ConfinementLayer[]; missing: Partial<Record<ConfinementLayer, string>>; bubblewrap?: Bubblewrap } {
  const missing: Partial<Record<ConfinementLayer, string>> = {}
  if (process.platform !== 'linux') {
    for (const layer of confinementLayers) missing[layer] = `not available on ${process.platform}`
    return { available: [], missing }
  }
  if (interpreter.landlockAbi < 1) missing.landlock = 'the kernel reports no Landlock support'
  const seccompProblem = seccompUnavailable()
  if (seccompProblem !== undefined) missing.seccomp = seccompProblem
  const executable = findExecutable(bubblewrapCommand ?? 'bwrap')
  const bubblewrap = executable === undefined ? undefined : { executable, sizedTmpfs: supportsSizedTmpfs(executable) }
  if (bubblewrap === undefined) missing.bubblewrap = `${bubblewrapCommand ?? 'bwrap'} is not installed`
  else {
    const problem = tryBubblewrap(bubblewrap, interpreter)
    if (problem !== undefined) missing.bubblewrap = problem
  }
  const available = confinementLayers.filter((layer) => missing[layer] === undefined)
  return bubblewrap === undefined || missing.bubblewrap !== undefined
    ? { available, missing }
    : { available, missing, bubblewrap }
}

/** Decides the layers for a profile (or an explicit layer list); throws when the choice cannot be met. */
export function planConfinement(
  profile: ConfinementProfile,
  probed: ReturnType<typeof probeLayers>,
  requested?: readonly ConfinementLayer[],
): ConfinementPlan {
  const wanted = requested ?? (profile === 'none' ? [] : confinementLayers)
  const strict = requested !== undefined || profile === 'full'
  const unmet = Object.fromEntries(
    wanted.filter((layer) => probed.missing[layer] !== undefined).map((layer) => [layer, probed.missing[layer]]),
  ) as Partial<Record<ConfinementLayer, string>>
  if (strict && Object.keys(unmet).length > 0) throw new ConfinementUnavailableError(unmet)
  const layers = confinementLayers.filter((layer) => wanted.includes(layer) && probed.missing[layer] === undefined)
  const effective: ConfinementProfile =
    layers.length === confinementLayers.length ? 'full' : profile === 'none' ? 'none' : 'partial'
  return {
    profile: layers.length === 0 ? 'none' : effective,
    layers,
    bubblewrap: layers.includes('bubblewrap') ? probed.bubblewrap : undefined,
    missing: unmet,
  }
}

function findExecutable(command: string): string | undefined {
  const paths = command.includes('/')
    ? [command]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, command))
  return paths.find((path) => {
    try {
      accessSync(path, constants.X_OK)
      return existsSync(path)
    } catch {
      return false
    }
  })
}

function supportsSizedTmpfs(executable: string): boolean {
  try {
    return execFileSync(executable, ['--help'], { encoding: 'utf8', timeout: 10_000 }).includes('--size')
  } catch {
    return false
  }
}

/** Runs the interpreter once inside the same bubblewrap sandbox programs get; returns why it failed, if it did. */
function tryBubblewrap(bubblewrap: Bubblewrap, interpreter: PythonInterpreter): string | undefined {
  try {
    const sandbox = bubblewrapArguments(bubblewrap, interpreter, 1024 * 1024)
    const args = [...sandbox, interpreter.executable, '-I', '-S', '-c', 'print("ok")']
    const text = execFileSync(bubblewrap.executable, args, {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    return text.trim() === 'ok' ? undefined : 'the sandboxed interpreter gave no answer'
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim()
    return `bwrap could not start a sandbox (${stderr === '' ? (error as Error).message : stderr})`
  }
}

/**
 * bubblewrap's part of the command: every namespace unshared (so no network), capabilities dropped, a
 * read-only `/usr` (and the interpreter's own prefix when it lives elsewhere), an empty `/dev`, a private
 * `/tmp` (at most `tmpBytes` where bubblewrap can cap it) as the working directory, killed with its parent,
 * in a session of its own. Ends with `--`.
 */
export function bubblewrapArguments(
  bubblewrap: Bubblewrap,
  interpreter: PythonInterpreter,
  tmpBytes: number,
): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--clearenv']
  args.push('--ro-bind', '/usr', '/usr')
  for (const top of ['/lib', '/lib64', '/bin']) {
    if (!existsSync(top)) continue
    if (lstatSync(top).isSymbolicLink()) args.push('--symlink', readlinkSync(top), top)
    else args.push('--ro-bind', top, top)
  }
  const prefix = join(interpreter.stdlib, '..', '..')
  if (!prefix.startsWith('/usr/')) args.push('--ro-bind', prefix, prefix)
  args.push('--dev', '/dev')
  if (bubblewrap.sizedTmpfs) args.push('--size', String(tmpBytes))
  args.push('--tmpfs', '/tmp', '--chdir', '/tmp', '--setenv', 'LC_ALL', 'C.UTF-8', '--')
  return args
}
