// Where the suite saved a scenario's checks, and which scenarios a run was asked for. Scenario names may hold `/`
// (`auth/basic-cimd`): the suite joins the name into the path, so those results sit one folder down.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'

/** One check as the suite writes it to `checks.json`. */
export interface Check {
  readonly id: string
  readonly status: string
  readonly errorMessage?: string
}

/** A scenario's checks counted: SUCCESS and FAILURE only (INFO and WARNING are neither). */
export interface Tally {
  readonly passed: number
  readonly failed: number
  readonly firstFailure?: string
}

const RUN_TIME = /^\d{4}-\d{2}-\d{2}T/

/**
 * The folder of a scenario's latest run under `outputDirectory`: `server-<name>-<time>` (server side) or
 * `<name>-<time>` (client side), where a `/` in the name is a folder. The time must follow the name at once, so
 * `auth/scope-step-up` does not find the runs of a longer name it starts.
 */
export function findScenarioRun(
  outputDirectory: string,
  side: 'server' | 'client',
  scenario: string,
): string | undefined {
  const segments = scenario.split('/')
  // A name is folders and a file name, never a way out of the output directory.
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined
  const { dir, base } = posix.parse(`${side === 'server' ? 'server-' : ''}${scenario}`)
  const folder = join(outputDirectory, ...dir.split('/').filter((part) => part !== ''))
  if (!existsSync(folder)) return undefined
  const stem = `${base}-`
  const runs = readdirSync(folder)
    .filter((name) => name.startsWith(stem) && RUN_TIME.test(name.slice(stem.length)))
    .sort()
  const latest = runs.at(-1)
  return latest === undefined ? undefined : join(folder, latest)
}

/** Counts the checks of a scenario's latest run, or undefined when it saved none. */
export function tallyScenario(outputDirectory: string, side: 'server' | 'client', scenario: string): Tally | undefined {
  const run = findScenarioRun(outputDirectory, side, scenario)
  if (run === undefined || !existsSync(join(run, 'checks.json'))) return undefined
  const checks = JSON.parse(readFileSync(join(run, 'checks.json'), 'utf8')) as Check[]
  const failures = checks.filter((check) => check.status === 'FAILURE')
  return {
    passed: checks.filter((check) => check.status === 'SUCCESS').length,
    failed: failures.length,
    ...(failures[0] && { firstFailure: `${failures[0].id}: ${failures[0].errorMessage ?? 'failed'}` }),
  }
}

/**
 * Whether a scenario is one a run was asked for: no filters means all; a filter ending in `/` is a prefix
 * (`auth/`), any other names one scenario exactly.
 */
export function isSelected(scenario: string, filters: readonly string[]): boolean {
  if (filters.length === 0) return true
  return filters.some((filter) => (filter.endsWith('/') ? scenario.startsWith(filter) : scenario === filter))
}
