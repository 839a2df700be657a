import { execFileSync } from 'node:child_process'
import { appendFileSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Debian's chromium, which the browser tests drive through playwright-core. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/** Debian's PostgreSQL binaries (`/usr/lib/postgresql/<major>/bin`), the newest major first, or undefined. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
    .sort((left, right) => Number(right) - Number(left))
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin')
}

/** A system package some suites need, how to tell it works here, and the one command that installs it. */
interface SystemPart {
  readonly install: string
  works(): boolean
}

const parts = {
  bubblewrap: {
    install: 'apt-get install bubblewrap',
    works: () => {
      try {
        execFileSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', '--dev', '/dev', 'true'], {
          stdio: 'ignore',
          timeout: 10_000,
        })
        return true
      } catch {
        return false
      }
    },
  },
  chromium: {
    install: 'apt-get install chromium',
    works: () => {
      try {
        execFileSync(CHROMIUM_PATH, ['--version'], { stdio: 'ignore', timeout: 30_000 })
        return true
      } catch {
        return false
      }
    },
  },
  postgresql: {
    install: 'apt-get install postgresql',
    works: () => {
      const bin = postgresBinaries()
      if (bin === undefined) return false
      try {
        execFileSync(join(bin, 'postgres'), ['--version'], { stdio: 'ignore', timeout: 30_000 })
        return true
      } catch {
        return false
      }
    },
  },
} satisfies Record<string, SystemPart>

export type SystemPartName = keyof typeof parts

/** Set by `.ci/run`: a suite that would skip for a missing part fails instead. */
export const REQUIRE_SYSTEM_PARTS = 'QILIN_REQUIRE_SYSTEM_PARTS'
/** Set by the global setup: where skipping suites note what they missed, for the one summary line. */
export const SKIP_NOTES = 'QILIN_SKIP_NOTES'

const known = new Map<SystemPartName, boolean>()

/**
 * True when `name` works on this machine. When it does not, the caller skips its suite (`describe.skipIf(!…)`):
 * the skip is noted for the run's summary line, and under `QILIN_REQUIRE_SYSTEM_PARTS=1` it throws instead, so CI
 * cannot pass without running the suite.
 */
export function hasSystemPart(name: SystemPartName, suite: string): boolean {
  let works = known.get(name)
  if (works === undefined) {
    works = parts[name].works()
    known.set(name, works)
  }
  if (works) return true
  if (process.env[REQUIRE_SYSTEM_PARTS] === '1') {
    throw new Error(
      `${suite} needs ${name}, which does not work here (${REQUIRE_SYSTEM_PARTS}=1): ${parts[name].install}`,
    )
  }
  const notes = process.env[SKIP_NOTES]
  if (notes !== undefined) appendFileSync(notes, `${JSON.stringify({ name, suite, install: parts[name].install })}\n`)
  return false
}
