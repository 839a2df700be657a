/**
 * Token study: three multi-step data tasks over real MCP servers (filesystem, memory), each run twice through the
 * same runtime: as a native tool loop (every result appended to the context, each request resending everything)
 * and as one `run_code` program (the model reads the program it wrote and what it printed). o200k_base tokens.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createNodePtcRuntime } from '@qilin-tools/code-mode-node'
import { filesystemServer, memoryServer } from '@qilin-tools/mcp/internal/__fixtures__/real-servers.js'
import { connectMcpServer } from '@qilin-tools/mcp/internal/connect-mcp-server.js'
import type { McpConnection } from '@qilin-tools/mcp/internal/mcp-connection-types.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { ToolRuntime } from 'qilin-tools/internal/pipeline/tool-runtime.js'
import { Conversation, countTokens, resultText } from './mcp-fixtures/conversation.js'
import {
  errorTallyTask,
  largestFilesTask,
  rosterGraphTask,
  type StudyTask,
  singleLookupTask,
} from './mcp-fixtures/study-tasks.js'
import { writeLogTree, writeRoster, writeServiceLogs } from './mcp-fixtures/task-data.js'
import { markdownTable } from './measure.js'

const root = mkdtempSync(join(tmpdir(), 'qilin-mcp-study-'))
const tree = writeLogTree(join(root, 'tree'))
const biggest = tree.largest[0]!
const tasks: StudyTask[] = [
  largestFilesTask(join(root, 'tree'), tree),
  errorTallyTask(join(root, 'logs'), writeServiceLogs(join(root, 'logs'))),
  rosterGraphTask(join(root, 'roster.csv'), writeRoster(join(root, 'roster.csv'))),
  singleLookupTask(join(root, 'tree', biggest.path), biggest.firstLine),
]

const ptcRuntime = createNodePtcRuntime()
const runtime = createToolRuntime({ ptcRuntime })
const filesystem = await connectMcpServer(runtime, filesystemServer(root))
let callCount = 0

/** A fresh memory server per run, so the native and the PTC run each start from an empty graph. */
async function withMemory<Value>(label: string, work: (memoryFile: string) => Promise<Value>): Promise<Value> {
  const memoryFile = join(root, `memory-${label}.jsonl`)
  const memory: McpConnection = await connectMcpServer(runtime, memoryServer(memoryFile))
  try {
    return await work(memoryFile)
  } finally {
    await memory.dispose()
  }
}

function scopeFor(task: StudyTask, mode: 'native' | 'ptc', label: string): ToolRuntime {
  const scope = runtime.agent(`${label}-${mode}`)
  scope.restrict((definition) => task.toolPrefixes.some((prefix) => definition.name.startsWith(prefix)))
  scope.presentAs(mode)
  return scope
}

async function runNative(task: StudyTask, label: string) {
  const scope = scopeFor(task, 'native', label)
  const conversation = new Conversation(task.prompt, scope.prompt())
  let calls = 0
  const answer = await task.native(async (turnCalls) => {
    conversation.request()
    const toolCalls = turnCalls.map((call) => ({ id: `native-${++callCount}`, ...call }))
    const results = await scope.executeAll(toolCalls)
    const failed = results.find((result) => !result.ok)
    if (failed !== undefined) throw new Error(`${task.name}: ${failed.name} failed: ${resultText(failed)}`)
    conversation.append(toolCalls, results)
    calls += toolCalls.length
    return results
  })
  conversation.request()
  return { conversation, calls, answer }
}

async function runPtc(task: StudyTask, label: string) {
  const scope = scopeFor(task, 'ptc', label)
  const conversation = new Conversation(task.prompt, scope.prompt())
  conversation.request()
  const call = { id: `ptc-${++callCount}`, name: 'run_code', arguments: { code: task.program, description: task.name } }
  const [result] = await scope.executeAll([call])
  if (result === undefined || !result.ok)
    throw new Error(`${task.name}: run_code failed: ${result && resultText(result)}`)
  conversation.append([call], [result])
  conversation.request()
  return {
    conversation,
    answer: resultText(result),
    programTokens: countTokens(task.program),
    outputTokens: countTokens(resultText(result)),
    subCalls: Number(result.metadata?.subCalls ?? 0),
  }
}

const rows: (string | number)[][] = []
const details: (string | number)[][] = []
for (const [index, task] of tasks.entries()) {
  const label = `task${index}`
  const native = await withMemory(`${label}-native`, () => runNative(task, label))
  const ptc = await withMemory(`${label}-ptc`, async (memoryFile) => {
    const run = await runPtc(task, label)
    if (task.toolPrefixes.includes('memory__')) {
      const saved = readFileSync(memoryFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"type":"entity"'))
      if (saved.length !== 60) throw new Error(`${task.name}: ${saved.length} entities saved, expected 60`)
    }
    return run
  })
  const ratio = native.conversation.total / ptc.conversation.total
  rows.push([
    task.name,
    `${native.conversation.requests.length} requests, ${native.calls} calls`,
    native.conversation.total,
    `2 requests, ${ptc.subCalls} sub-calls`,
    ptc.conversation.total,
    `${ratio.toFixed(1)}x`,
    task.check(native.answer) ? 'correct' : 'WRONG',
    task.check(ptc.answer) ? 'correct' : 'WRONG',
  ])
  details.push([
    task.name,
    native.conversation.prefixTokens,
    native.conversation.total - native.conversation.prefixTokens * native.conversation.requests.length,
    ptc.conversation.prefixTokens,
    ptc.programTokens,
    ptc.outputTokens,
  ])
}

console.log(
  'Total input tokens (o200k_base) over every model request; the final request reads all results and answers.\n',
)
console.log(
  markdownTable(
    [
      'task',
      'native loop',
      'native input tokens',
      'PTC',
      'PTC input tokens',
      'native / PTC',
      'native answer',
      'PTC answer',
    ],
    rows,
  ),
)
console.log('\nWhere the tokens go (prefix = system text + tool definitions + task, resent with every request):\n')
console.log(
  markdownTable(
    ['task', 'native prefix', 'native history (all requests)', 'PTC prefix', 'program', 'printed output'],
    details,
  ),
)

await filesystem.dispose()
await ptcRuntime.close()
rmSync(root, { recursive: true, force: true })
