import { createRequire } from 'node:module'

/** What the qilin-tools command sets through `GLIBC_TUNABLES`: every malloc of 64 KiB or more is its own mapping. */
export const MMAP_THRESHOLD_BYTES = 65_536

/** The addon built at install from `native/malloc-threshold.c` (absent when that build failed). */
interface MallocThresholdAddon {
  fixMmapThreshold(bytes: number): boolean
}

/** Why the threshold is as it is in this process, once decided. */
export type MmapThresholdState = 'fixed' | 'set-by-host' | 'not-glibc-or-no-addon'

let state: MmapThresholdState | undefined

function loadAddon(): MallocThresholdAddon | undefined {
  try {
    // The same path from src/ (tsx, vitest) and dist/: the package's build/ folder is beside both.
    return createRequire(import.meta.url)('../build/Release/malloc_threshold.node') as MallocThresholdAddon
  } catch {
    return undefined
  }
}

/**
 * Fixes glibc's mmap threshold at 64 KiB, once per process, so the array buffers a finished program freed go back
 * to the system instead of staying in malloc's arenas (issue 14: 129 MB after one flood in a host started plainly).
 * Process-wide and never undone. A host that set any `glibc.malloc.*` tunable chose for itself and is left alone;
 * on musl, macOS and Windows, or when the addon did not build at install, it does nothing.
 */
export function fixMmapThreshold(): MmapThresholdState {
  if (state !== undefined) return state
  if (/\bglibc\.malloc\./.test(process.env.GLIBC_TUNABLES ?? '')) state = 'set-by-host'
  else state = loadAddon()?.fixMmapThreshold(MMAP_THRESHOLD_BYTES) === true ? 'fixed' : 'not-glibc-or-no-addon'
  return state
}
