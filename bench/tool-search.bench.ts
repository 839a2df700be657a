/**
 * Tool search: recall@5 of the built-in ranker on one user-worded query per real tool (129 tools, then every list
 * under ten prefixes: 1,290), the o200k tokens of the fixed prompt with search on in native and code mode at both
 * sizes, and what `prompt()` costs after one more tool at 10,000 registered.
 */

import { createNodePtcRuntime } from '@qilin-tools/code-mode-node/internal/create-node-ptc-runtime.js'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import type { AnyToolDefinition } from 'qilin-tools/internal/definition/tool-definition.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { ToolRuntimeConfig } from 'qilin-tools/internal/pipeline/runtime-config.js'
import type { ToolPrompt } from 'qilin-tools/internal/registry/tool-schema.js'
import {
  realCorpus,
  type SearchCorpus,
  tenfoldCorpus,
} from 'qilin-tools/internal/tool-search/__fixtures__/search-corpus.js'
import { Bm25Index } from 'qilin-tools/internal/tool-search/bm25-ranker.js'
import { searchDocument } from 'qilin-tools/internal/tool-search/search-document.js'
import { formatNs, markdownTable, summarize } from './measure.js'

const corpora: [string, SearchCorpus][] = [
  ['129 real tools', realCorpus()],
  ['1,290 (ten prefixes)', tenfoldCorpus()],
]
let failed = false

console.log('### recall@5 of search_tools (BM25F), one query per tool\n')
const recallRows: (string | number)[][] = []
for (const [label, corpus] of corpora) {
  const index = new Bm25Index(corpus.definitions.map(searchDocument))
  const perList = new Map<string, { hits: number; total: number }>()
  for (const query of corpus.queries) {
    const tally = perList.get(query.list) ?? { hits: 0, total: 0 }
    tally.total++
    if (index.rank(query.query, 5).includes(query.expected)) tally.hits++
    perList.set(query.list, tally)
  }
  for (const [list, { hits, total }] of perList) {
    const recall = hits / total
    if (recall < 0.95) failed = true
    recallRows.push([label, list, total, recall.toFixed(2), recall >= 0.95 ? 'yes' : 'NO'])
  }
}
console.log(markdownTable(['corpus', 'list', 'queries', 'recall@5', '≥ 0.95'], recallRows))

const promptTokens = (prompt: ToolPrompt) =>
  encode(JSON.stringify(prompt.tools)).length + prompt.sections.reduce((sum, s) => sum + encode(s.text).length, 0)

const ptc = createNodePtcRuntime({ poolSize: 0 })
const modes: [string, ToolRuntimeConfig][] = [
  ['native', {}],
  ['code mode (ptc, TypeScript)', { mode: 'ptc', ptcRuntime: ptc }],
  ['both (TypeScript)', { mode: 'both', ptcRuntime: ptc }],
]
console.log('\n### Fixed prompt with search on (o200k tokens of the tools JSON plus every section)\n')
const tokenRows: (string | number)[][] = []
for (const [mode, config] of modes) {
  const cells: (string | number)[] = [mode]
  for (const [, corpus] of corpora) {
    const runtime = createToolRuntime(config)
    for (const definition of corpus.definitions) runtime.register(definition)
    const tokens = promptTokens(runtime.prompt())
    if (tokens > 2000) failed = true
    cells.push(tokens)
  }
  cells.push(Number(cells[1]) <= 2000 && Number(cells[2]) <= 2000 ? 'yes' : 'NO')
  cells.push(cells[1] === cells[2] ? 'yes' : `no (${Number(cells[2]) - Number(cells[1])})`)
  tokenRows.push(cells)
}
console.log(markdownTable(['mode', '129 tools', '1,290 tools', '≤ 2,000', 'same at both'], tokenRows))

/** 10,000 distinct tools from the real lists, each copy under its own prefix. */
function manyTools(count: number): AnyToolDefinition[] {
  const base = realCorpus().definitions
  return Array.from({ length: count }, (_, index) => {
    const original = base[index % base.length] as AnyToolDefinition
    return { ...original, name: `s${Math.floor(index / base.length)}-${original.name}` }
  })
}

console.log(
  '\n### prompt() at 10,000 tools: the first, and after registering one more (medians of 30 rounds, 3 with search off; code mode with search off is not incremental and not measured)\n',
)
console.log(
  'Wall time counts whatever else the machine runs; CPU time (`process.cpuUsage`, user + system) counts only this process.\n',
)
console.log(
  '| mode | search | first prompt() | after +1, wall | after +1, CPU | ≤ 2 ms |\n| --- | --- | --- | --- | --- | --- |',
)
const cpuNow = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) * 1000
}
const many = manyTools(10_000)
for (const [mode, config] of modes) {
  // With search off, code mode re-renders the whole SDK for 10,000 tools (hundreds of ms each): not measured here.
  for (const search of mode === 'native' ? [true, false] : [true]) {
    const runtime = createToolRuntime(search ? config : { ...config, toolSearch: false })
    for (const definition of many) runtime.register(definition)
    const start = performance.now()
    runtime.prompt()
    const first = performance.now() - start
    const wall: number[] = []
    const cpu: number[] = []
    const rounds = search ? 30 : 3
    for (let round = 0; round < rounds; round++) {
      runtime.register({ ...(many[round] as AnyToolDefinition), name: `extra-${round}__tool` })
      const startedCpu = cpuNow()
      const started = process.hrtime.bigint()
      runtime.prompt()
      wall.push(Number(process.hrtime.bigint() - started))
      cpu.push(cpuNow() - startedCpu)
    }
    const afterWall = summarize(wall).medianNs
    const afterCpu = summarize(cpu).medianNs
    if (search && Math.min(afterWall, afterCpu) > 2e6) failed = true
    const met = search ? (afterWall <= 2e6 ? 'yes' : afterCpu <= 2e6 ? 'CPU only' : 'NO') : '(no target)'
    console.log(
      `| ${mode} | ${search ? 'on' : 'off'} | ${first.toFixed(1)} ms | ${formatNs(afterWall)} | ${formatNs(afterCpu)} | ${met} |`,
    )
  }
}
await ptc.close()
if (failed) process.exitCode = 1
