// `npm run test:mcp-conformance`: the official MCP conformance suite against `serveMcp` (server scenarios) and
// `connectMcpServer` (client scenarios). Prints one line per scenario and fails when a scenario we offer fails, when
// one we do not offer starts passing, or when the suite has a scenario the table in expectations.ts does not name.
// Arguments pick scenarios: `npm run test:mcp-conformance -- tools-call-image auth/` (a trailing `/` is a prefix).
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { clientScenarioPrefixes, clientScenarios, type ScenarioClaim, serverScenarios } from './expectations.js'
import { ensureHarness, type Harness, SUITE_VERSION } from './harness.js'
import { isSelected, type Tally, tallyScenario } from './scenario-results.js'

const root = new URL('../..', import.meta.url).pathname
const here = join(root, 'scripts', 'mcp-conformance')
const tsx = ['--import', 'tsx']

function listScenarios(harness: Harness, side: 'server' | 'client'): string[] {
  const text = execFileSync(harness.node, [harness.suite, 'list', `--${side}`], { cwd: root, encoding: 'utf8' })
  return [...text.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] as string)
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

const filters = process.argv.slice(2)
const harness = ensureHarness(root)
const output = mkdtempSync(join(tmpdir(), 'qilin-mcp-conformance-'))
const problems: string[] = []
let passedChecks = 0
let totalChecks = 0
try {
  const listedServer = listScenarios(harness, 'server')
  const selectedServer = listedServer.filter((scenario) => isSelected(scenario, filters))
  if (selectedServer.length > 0) {
    const server = await startFixtureServer()
    try {
      if (filters.length === 0) runSuite(harness, ['server', '--url', server.url, '--suite', 'all', '-o', output])
      else {
        for (const scenario of selectedServer) {
          runSuite(harness, ['server', '--url', server.url, '--scenario', scenario, '-o', output])
        }
      }
    } finally {
      server.stop()
    }
  }
  for (const scenario of selectedServer) {
    const result = tallyScenario(output, 'server', scenario)
    passedChecks += result?.passed ?? 0
    totalChecks += (result?.passed ?? 0) + (result?.failed ?? 0)
    problems.push(...judge('server', scenario, serverScenarios[scenario], result))
  }
  if (filters.length === 0) {
    for (const stale of Object.keys(serverScenarios).filter((name) => !listedServer.includes(name))) {
      problems.push(`server ${stale}: named in expectations.ts but not in suite ${SUITE_VERSION}`)
    }
  }
  const listedClient = listScenarios(harness, 'client')
  if (filters.length === 0) {
    for (const stale of Object.keys(clientScenarios).filter((name) => !listedClient.includes(name))) {
      problems.push(`client ${stale}: named in expectations.ts but not in suite ${SUITE_VERSION}`)
    }
  }
  const command = `${process.execPath} ${tsx.join(' ')} ${join(here, 'fixture-client.ts')}`
  const clientTally = { offered: 0, passed: 0 }
  for (const scenario of listedClient.filter((name) => isSelected(name, filters))) {
    const claim = claimForClient(scenario)
    // Scenarios we do not offer are not run: each waits for the harness's timeout.
    if (claim?.offered) runSuite(harness, ['client', '--command', command, '--scenario', scenario, '-o', output])
    const result = claim?.offered ? tallyScenario(output, 'client', scenario) : undefined
    const found = judge('client', scenario, claim, result)
    if (claim?.offered) {
      clientTally.offered += 1
      if (found.length === 0) clientTally.passed += 1
    }
    problems.push(...found)
  }
  process.stdout.write(
    `\nMCP conformance ${SUITE_VERSION}: server checks passed ${passedChecks} of ${totalChecks}; ` +
      `client scenarios offered and passing ${clientTally.passed} of ${clientTally.offered}\n`,
  )
} finally {
  // Kept when something failed: the suite's checks.json and the client's stdout and stderr say why.
  if (problems.length === 0) rmSync(output, { recursive: true, force: true })
  else process.stderr.write(`the suite's results: ${output}\n`)
}
if (problems.length > 0) {
  process.stderr.write(`${problems.map((problem) => `FAIL ${problem}`).join('\n')}\n`)
  process.exitCode = 1
}
