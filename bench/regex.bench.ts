/**
 * The linear regex engine (re2js through `compileLinearPattern`) against V8's `RegExp`: compile and match time on
 * benign patterns of the kinds tools use, and match time on the issue 14 attacks; `RegExp` runs each attack in a
 * child process it kills after five seconds.
 */
import { spawnSync } from 'node:child_process'
import { globMatcher } from '@qilin-tools/toolkit/internal/glob-pattern.js'
import { anchoredSequence } from 'qilin-tools/internal/json-schema/anchored-sequence.js'
import { compileLinearPattern, type LinearPattern } from 'qilin-tools/internal/json-schema/linear-regex.js'
import { RE2JS } from 're2js'
import { formatNs, markdownTable, measureSync } from './measure.js'

function timeOnce(run: () => unknown): number {
  const start = process.hrtime.bigint()
  run()
  return Number(process.hrtime.bigint() - start)
}

function linear(source: string): LinearPattern {
  const result = compileLinearPattern(source)
  if (!result.ok) throw new Error(`${source}: ${result.reason}`)
  return result.pattern
}

const benign: [label: string, source: string, input: string][] = [
  ['date', '^\\d{4}-\\d{2}-\\d{2}$', '2026-12-01'],
  ['no NUL', '^[^\\u0000]+$', 'packages/core/src/json-schema/linear-regex.ts'],
  ['email-ish', '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$', 'someone.name@example.com'],
  ['identifier', '^[A-Za-z_][A-Za-z0-9_]{0,63}$', 'createWorkspaceToolkit'],
  ['grep word', 'TODO|FIXME', `${'const value = compute(input) '.repeat(3)}// TODO tidy`],
  ['grep miss', 'TODO|FIXME', 'const value = compute(input) + other(value) * 2; // nothing here'],
]

const rows: (string | number)[][] = []
for (const [label, source, input] of benign) {
  const native = new RegExp(source, 'u')
  const firstCompileNs = timeOnce(() => compileLinearPattern(source))
  const pattern = linear(source)
  if (pattern.test(input) !== native.test(input)) throw new Error(`${label}: engines disagree`)
  const engineCompile = measureSync(() => RE2JS.compile(RE2JS.translateRegExp(source)), {
    batch: 50,
    samples: 20,
    warmup: 200,
  })
  const nativeCompile = measureSync(() => new RegExp(source, 'u'), { batch: 1000, samples: 20 })
  const ours = measureSync(() => pattern.test(input), { batch: 2000, samples: 30, warmup: 50_000 })
  const theirs = measureSync(() => native.test(input), { batch: 2000, samples: 30, warmup: 50_000 })
  rows.push([
    label,
    `\`${source}\``,
    anchoredSequence(source) === undefined ? 're2js' : 'anchored sequence',
    formatNs(firstCompileNs),
    formatNs(engineCompile.medianNs),
    formatNs(nativeCompile.medianNs),
    formatNs(ours.medianNs),
    formatNs(theirs.medianNs),
    `${(ours.medianNs / theirs.medianNs).toFixed(1)}x`,
  ])
}
console.log('### Benign patterns\n')
console.log(
  markdownTable(
    [
      'pattern',
      'source',
      'matched by',
      'first compile (ours, cold)',
      're2js compile (always)',
      'RegExp compile',
      'match (ours)',
      'match (RegExp)',
      'ours / RegExp',
    ],
    rows,
  ),
)

const globAttack = globMatcher('**a**a**a**a**a**a**a**a**b')
const GLOB_SOURCE = '^(?:[^/]*/)*.*a.*a.*a.*a.*a.*a.*a.*a.*b$'
const attacks: [label: string, source: string, input: string, run: () => boolean][] = [
  ['grep `(a{1,20}){1,20}b`, 40 a', '(a{1,20}){1,20}b', 'a'.repeat(40), () => false],
  ['grep `(a{1,20}){1,20}b`, 16 K a', '(a{1,20}){1,20}b', 'a'.repeat(16_384), () => false],
  ['schema `^(a+)+$`, 4096 a then !', '^(a+)+$', `${'a'.repeat(4096)}!`, () => false],
  ['glob `**a**a…**b`, 60-character name', GLOB_SOURCE, 'a'.repeat(60), () => globAttack.test('a'.repeat(60))],
  ['widest program `[a-z]{990}[a-z]#`, 16 K ab', '[a-z]{990}[a-z]#', 'ab'.repeat(8192), () => false],
]
const NATIVE_TIMEOUT_MS = 5_000

/** V8's RegExp on the same input, in a child process killed after five seconds. */
function nativeTime(source: string, input: string): string {
  const script = `const r = new RegExp(${JSON.stringify(source)}); const s = ${JSON.stringify(input)}; const t = performance.now(); r.test(s); console.log(performance.now() - t)`
  const run = spawnSync(process.execPath, ['-e', script], { timeout: NATIVE_TIMEOUT_MS, encoding: 'utf8' })
  if (run.error !== undefined || run.status !== 0) return `killed after ${NATIVE_TIMEOUT_MS / 1000} s`
  return formatNs(Number(run.stdout.trim()) * 1e6)
}

const attackRows = attacks.map(([label, source, input, glob]) => {
  const run = source === GLOB_SOURCE ? glob : () => linear(source).test(input)
  const cold = timeOnce(run)
  const warm = measureSync(run, { batch: 5, samples: 10, warmup: 5 })
  return [label, formatNs(cold), formatNs(warm.medianNs), formatNs(warm.p90Ns), nativeTime(source, input)]
})
console.log('\n### Attacks (compile included in the cold run)\n')
console.log(markdownTable(['attack', 'cold (ours)', 'warm median', 'warm p90', 'RegExp'], attackRows))
const refused = compileLinearPattern('(a{1,30}){1,30}b')
console.log(`\n\`(a{1,30}){1,30}b\` itself: ${refused.ok ? 'compiled' : `refused (${refused.reason})`}`)
