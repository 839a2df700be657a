import { readdirSync, readFileSync } from 'node:fs'

/** Host processes whose command line contains `marker` (read from `/proc`, so nothing is missed for a pipe). */
export function hostProcessesMatching(marker: string): number[] {
  return hostPids().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(marker)
    } catch {
      return false
    }
  })
}

/** How many processes the host has right now. */
export function hostProcessCount(): number {
  return hostPids().length
}

function hostPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
}
