// `npm run test:mcp-conformance`: the official MCP conformance suite against `serveMcp` (server scenarios) and
// `connectMcpServer` (client scenarios). Prints one line per scenario and fails when a scenario we offer fails, when
// one we do not offer starts passing, or when the suite has a scenario the table in expectations.ts does not name.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { clientScenarioPrefixes, clientScenarios, type ScenarioClaim, serverScenarios } from './expectations.js'
import { ensureHarness, type Harness, SUITE_VERSION } from './harness.js'

const root = new URL('../..', import.meta.url).pathname
const here = join(root, 'scripts', 'mcp-conformance')
const tsx = ['--import', 'tsx']

interface Check {
  readonly id: string
  readonly status: string
  readonly errorMessage?: string
}
interface Tally {
  readonly passed: number
  readonly failed: number
  readonly firstFailure?: string
}

function listScenarios(harness: Harness, side: 'server' | 'client'): string[] {
  const text = execFileSync(harness.node, [harness.suite, 'list', `--${side}`], { cwd: root, encoding: 'utf8' })
  return [...text.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] as string)
}

/** Every check the suite saved for a scenario: `server-<scenario>-<time>/` or `<scenario>-<time>/` (client). */
function tally(outputDirectory: string, side: 'server' | 'client', scenario: string): Tally | undefined {
  const stem = `${side === 'server' ? 'server-' : ''}${scenario.replaceAll('/', '-')}-`
  const run = readdirSync(outputDirectory).find(
    (name) => name.startsWith(stem) && /^\d{4}-/.test(name.slice(stem.length)),
  )
  if (run === undefined) return undefined
  const checks = JSON.parse(readFileSync(join(outputDirectory, run, 'checks.json'), 'utf8')) as Check[]
  const failures = checks.filter((check) => check.status === 'FAILURE')
  return {
    passed: checks.filter((check) => check.status === 'SUCCESS').length,
    failed: failures.length,
    ...(failures[0] && { firstFailure: `${failures[0].id}: ${failures[0].errorMessage ?? 'failed'}` }),
  }
}

async function startFixtureServer(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [...tsx, join(here, 'fixture-server.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout })
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the fixture server exited (${code}) before serving`)))
  })
  const { url } = JSON.parse(first) as { url: string }
  return { url, stop: () => child.kill('SIGTERM') }
}

function runSuite(harness: Harness, args: readonly string[]): void {
  try {
    execFileSync(harness.node, [harness.suite, ...args], { cwd: root, stdio: 'ignore', timeout: 300_000 })
  } catch {
    // A failing scenario exits non-zero; the saved checks say which, and are judged below.
  }
}

function claimForClient(scenario: string): ScenarioClaim | undefined {
  const prefix = Object.keys(clientScenarioPrefixes).find((start) => scenario.startsWith(start))
  return clientScenarios[scenario] ?? (prefix === undefined ? undefined : clientScenarioPrefixes[prefix])
}

function judge(side: string, scenario: string, claim: ScenarioClaim | undefined, result: Tally | undefined): string[] {
  const counts = result === undefined ? 'not run' : `${result.passed} passed, ${result.failed} failed`
  const problems: string[] = []
  if (claim === undefined) problems.push(`${side} ${scenario}: not in expectations.ts; say whether we offer it`)
  else if (claim.offered && (result === undefined || result.failed > 0 || result.passed === 0)) {
    problems.push(`${side} ${scenario}: offered but ${result?.firstFailure ?? counts}`)
  } else if (!claim.offered && result !== undefined && result.failed === 0 && result.passed > 0) {
    problems.push(`${side} ${scenario}: now passes; mark it offered in expectations.ts`)
  }
  const mark = problems.length > 0 ? '✗' : claim?.offered ? '✓' : '·'
  const note = claim !== undefined && !claim.offered ? ` (${claim.reason})` : ''
  process.stdout.write(`${mark} ${side} ${scenario}: ${counts}${note}\n`)
  return problems
}

const harness = ensureHarness(root)
const output = mkdtempSync(join(tmpdir(), 'qilin-mcp-conformance-'))
const problems: string[] = []
let passedChecks = 0
let totalChecks = 0
try {
  const server = await startFixtureServer()
  try {
    runSuite(harness, ['server', '--url', server.url, '--suite', 'all', '-o', output])
  } finally {
    server.stop()
  }
  const listedServer = listScenarios(harness, 'server')
  for (const scenario of listedServer) {
    const result = tally(output, 'server', scenario)
    passedChecks += result?.passed ?? 0
    totalChecks += (result?.passed ?? 0) + (result?.failed ?? 0)
    problems.push(...judge('server', scenario, serverScenarios[scenario], result))
  }
  for (const stale of Object.keys(serverScenarios).filter((name) => !listedServer.includes(name))) {
    problems.push(`server ${stale}: named in expectations.ts but not in suite ${SUITE_VERSION}`)
  }
  const command = `${process.execPath} ${tsx.join(' ')} ${join(here, 'fixture-client.ts')}`
  for (const scenario of listScenarios(harness, 'client')) {
    const claim = claimForClient(scenario)
    // Scenarios we do not offer are not run: each waits for the harness's timeout.
    if (claim?.offered) runSuite(harness, ['client', '--command', command, '--scenario', scenario, '-o', output])
    problems.push(...judge('client', scenario, claim, claim?.offered ? tally(output, 'client', scenario) : undefined))
  }
} finally {
  rmSync(output, { recursive: true, force: true })
}
process.stdout.write(`\nMCP conformance ${SUITE_VERSION}: server checks passed ${passedChecks} of ${totalChecks}\n`)
if (problems.length > 0) {
  process.stderr.write(`${problems.map((problem) => `FAIL ${problem}`).join('\n')}\n`)
  process.exitCode = 1
}
