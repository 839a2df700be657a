/**
 * `npm run bench cli`: wall time of `qilin-tools run` on a 10-call program over the workspace toolkit, process start
 * included (target under 300 ms on the 2-core machine), and where the time goes: node start, imports, sandbox, calls.
 * Spawns the built CLI (`npm run build` first).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { formatNs, type Measurement, markdownTable, summarize } from './measure.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const cli = join(root, 'packages', 'cli', 'dist', 'main.js')
const config = join(root, 'examples', 'qilin.config.json')
const samples = Number(process.env.QILIN_BENCH_SAMPLES ?? 15)
const warmup = 2

const tenCalls = `const { files } = await tools.glob({ pattern: '**/*' })
const details = await Promise.all(files.slice(0, 6).map((path) => tools.file_info({ path })))
const readme = await tools.read_file({ path: 'README.md', limit: 3 })
const hits = await tools.grep({ pattern: 'TODO|FIXME' })
const listing = await tools.list_directory({})
console.log(details.length + 4, readme.totalLines, hits.matches.length, listing.entries.length)`

/** The same work as the CLI in one process, timed phase by phase against the process's own clock. */
const breakdownScript = (packages: string) => `
const nodeStart = performance.now()
const importStart = performance.now()
const { createToolRuntime } = await import('${packages}/core/dist/pipeline/create-tool-runtime.js')
const { createWorkspaceToolkit } = await import('${packages}/toolkit/dist/index.js')
await import('${packages}/cli/dist/commands.js')
const importPtcStart = performance.now()
const { createNodePtcRuntime } = await import('${packages}/code-mode-node/dist/index.js')
const setupStart = performance.now()
let started = 0
const ptcRuntime = createNodePtcRuntime({ poolSize: 0, hooks: { started: () => { started = performance.now() } } })
const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime })
createWorkspaceToolkit({ root: ${JSON.stringify(join(root, 'examples', 'workspace'))} }).register(runtime)
const runStart = performance.now()
const result = await runtime.execute({ id: 'bench', name: 'run_code', arguments: { code: ${JSON.stringify(tenCalls)}, description: 'bench' } })
const end = performance.now()
if (!result.ok || result.metadata?.subCalls !== 10) throw new Error('the program did not make 10 calls: ' + JSON.stringify(result))
await ptcRuntime.close()
console.log(JSON.stringify({
  node: nodeStart,
  importCli: importPtcStart - importStart,
  importSandbox: setupStart - importPtcStart,
  setup: runStart - setupStart,
  sandbox: started - runStart,
  calls: end - started,
}))
`

const timeCommand = '/usr/bin/time'

/** Wall and CPU (user + system) milliseconds of one CLI run; CPU shows the cost when other work shares the cores. */
function cliRun(args: readonly string[]): { wall: number; cpu: number } {
  const start = process.hrtime.bigint()
  const run = spawnSync(timeCommand, ['-f', 'qilin-cpu %U %S', process.execPath, ...args], {
    cwd: root,
    encoding: 'utf8',
  })
  const wall = Number(process.hrtime.bigint() - start) / 1e6
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}):\n${run.stderr}`)
  const [, user = 'NaN', system = 'NaN'] = /qilin-cpu (\S+) (\S+)/.exec(run.stderr) ?? []
  return { wall, cpu: (Number(user) + Number(system)) * 1000 }
}

function wallMs(args: readonly string[]): number {
  const start = process.hrtime.bigint()
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' })
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}):\n${run.stderr}`)
  return elapsed
}

function repeat<Value>(work: () => Value): Value[] {
  for (let index = 0; index < warmup; index++) work()
  return Array.from({ length: samples }, work)
}

const row = (label: string, measurement: Measurement) => [
  label,
  formatNs(measurement.medianNs),
  formatNs(measurement.p90Ns),
]
const fromMs = (values: readonly number[]) => summarize(values.map((value) => value * 1e6))

if (!existsSync(cli)) {
  console.error('bench/cli.bench.ts needs the built CLI: run `npm run build` first')
  process.exit(1)
}
const scratch = mkdtempSync(join(tmpdir(), 'qilin-cli-bench-'))
try {
  const program = join(scratch, 'ten-calls.ts')
  writeFileSync(program, tenCalls)
  const breakdownFile = join(scratch, 'breakdown.mjs')
  writeFileSync(breakdownFile, breakdownScript(pathToFileURL(join(root, 'packages')).href))

  const total = existsSync(timeCommand)
    ? repeat(() => cliRun(['--no-node-snapshot', cli, 'run', program, '--config', config]))
    : repeat(() => ({ wall: wallMs(['--no-node-snapshot', cli, 'run', program, '--config', config]), cpu: Number.NaN }))
  const bare = repeat(() => wallMs(['--no-node-snapshot', '-e', '0']))
  const phases = repeat(() => {
    const run = spawnSync(process.execPath, ['--no-node-snapshot', breakdownFile], { cwd: root, encoding: 'utf8' })
    if (run.status !== 0) throw new Error(run.stderr)
    return JSON.parse(run.stdout) as Record<string, number>
  })
  const phase = (name: string) => fromMs(phases.map((sample) => sample[name] ?? Number.NaN))

  console.log(
    `qilin-tools run, 10 sub-calls over examples/workspace, ${samples} samples after ${warmup} warm-up runs\n`,
  )
  console.log(
    markdownTable(
      ['what', 'median', 'p90'],
      [
        row('**qilin-tools run, wall (process start to exit)**', fromMs(total.map((sample) => sample.wall))),
        row('qilin-tools run, CPU time (user + system, 10 ms resolution)', fromMs(total.map((sample) => sample.cpu))),
        row('node --no-node-snapshot -e 0, wall', fromMs(bare)),
        row('in process: node start until the first line runs', phase('node')),
        row('in process: import CLI, pipeline, toolkit', phase('importCli')),
        row('in process: import the Node PTC runtime (amaro, isolated-vm)', phase('importSandbox')),
        row('in process: create runtime, register toolkit', phase('setup')),
        row('in process: strip types + new isolate until the first statement', phase('sandbox')),
        row('in process: the program and its 10 calls', phase('calls')),
      ],
    ),
  )
  const median = fromMs(total.map((sample) => sample.wall)).medianNs / 1e6
  console.log(`\ntarget: under 300 ms wall; median ${median.toFixed(0)} ms: ${median < 300 ? 'met' : 'NOT met'}`)
  console.log(
    `load average while measuring: ${loadavg()
      .map((load) => load.toFixed(1))
      .join(', ')} on ${availableParallelism()} cores`,
  )
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
