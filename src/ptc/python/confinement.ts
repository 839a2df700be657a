import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { brandError } from '../../errors/brand.js'
import { type SandboxProfile, bubblewrapArguments as sandboxArguments } from '../../sandbox/bubblewrap-arguments.js'
import { BUBBLEWRAP_REMEDY, type Bubblewrap, findBubblewrap } from '../../sandbox/find-bubblewrap.js'
import type { SandboxEscalation } from '../../sandbox/sandbox-escalation.js'
import { seccompRemedy, seccompUnavailable } from '../../sandbox/seccomp-support.js'
import type { PythonInterpreter } from './find-python.js'
import { networkReadPaths } from './network-read-paths.js'

/** The confinement layers, outermost first. Each is applied and tested on its own. */
export const confinementLayers = ['bubblewrap', 'landlock', 'seccomp', 'rlimits'] as const
/** One of the layers that confine a Python program. */
export type ConfinementLayer = (typeof confinementLayers)[number]

/**
 * `full` (default) refuses to start unless every layer works here; `partial` uses the layers that work;
 * `none` runs programs unconfined. Anything short of `full` is stated in every run's metadata.
 */
export type ConfinementProfile = 'full' | 'partial' | 'none'

/** What to do when a layer is missing, in words a host operator can act on. */
const remedies = {
  bubblewrap: BUBBLEWRAP_REMEDY,
  landlock: 'use Linux 5.13 or newer with Landlock enabled (CONFIG_SECURITY_LANDLOCK=y and "landlock" in lsm=)',
  seccomp: seccompRemedy,
  rlimits: 'run on Linux',
} satisfies Record<ConfinementLayer, string>

export type { Bubblewrap } from '../../sandbox/find-bubblewrap.js'

export interface ConfinementPlan {
  readonly profile: ConfinementProfile
  readonly layers: readonly ConfinementLayer[]
  /** The bubblewrap executable, when that layer is in use. */
  readonly bubblewrap: Bubblewrap | undefined
  /** Why each unused layer could not be used (empty under `full`). */
  readonly missing: Readonly<Partial<Record<ConfinementLayer, string>>>
}

/** Thrown at start under `confinement: 'full'` when a layer does not work here; the message says how to fix each. */
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

/** Recognises a ConfinementUnavailableError from any copy of this package or realm. */
export const isConfinementUnavailableError = brandError(ConfinementUnavailableError, 'ConfinementUnavailableError')

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
  const found = findBubblewrap(bubblewrapCommand)
  const bubblewrap = 'problem' in found ? undefined : found
  if (bubblewrap === undefined) missing.bubblewrap = (found as { problem: string }).problem
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
 * The shared sandbox profile for a runner: the system read-only (and the interpreter's own prefix when it lives
 * elsewhere), no network, a private `/tmp` (at most `tmpBytes` where bubblewrap can cap it) as the working directory,
 * only `LC_ALL` in the environment. An escalated run adds what `escalation` names: its writable paths, and the
 * host's network namespace with what name resolution and TLS read (the runner's seccomp profile and Landlock
 * ruleset open IPv4/IPv6 and TCP to match). `mounts` replaces the private `/tmp` and `/dev/shm` with inode-capped
 * ones (`capped-tmpfs.ts`). Ends with `--`.
 */
export function bubblewrapArguments(
  bubblewrap: Bubblewrap,
  interpreter: PythonInterpreter,
  tmpBytes: number,
  escalation: SandboxEscalation = {},
  mounts: Pick<SandboxProfile, 'tmpSource' | 'shmSource' | 'identity'> = {},
): string[] {
  const prefix = join(interpreter.stdlib, '..', '..')
  return sandboxArguments(bubblewrap, {
    readOnlyPaths: [
      ...(prefix.startsWith('/usr/') ? [] : [prefix]),
      ...(escalation.network === true ? networkReadPaths : []),
    ],
    writablePaths: escalation.writablePaths ?? [],
    network: escalation.network === true,
    env: { LC_ALL: 'C.UTF-8' },
    tmpBytes,
    ...mounts,
  })
}
