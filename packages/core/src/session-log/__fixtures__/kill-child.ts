// Runs calls forever through a JSONL session log, printing each result id once `execute` handed it back.
// The parent kills this process with SIGKILL at an arbitrary moment.
import { defineTool } from '../../definition/define-tool.js'
import { createToolRuntime } from '../../pipeline/create-tool-runtime.js'
import { createJsonlSessionLog } from '../jsonl-session-log.js'

const path = process.argv[2]
if (path === undefined) throw new Error('usage: kill-child <log path>')
const runtime = createToolRuntime({ sessionLog: createJsonlSessionLog(path) })
runtime.register(
  defineTool({
    name: 'add',
    description: 'Add.',
    parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
    executionMode: 'parallel',
    execute: ({ a, b }) => a + b,
  }),
)
let next = 0
for (;;) {
  const calls = Array.from({ length: 8 }, () => {
    next++
    return { id: `c${next}`, name: 'add', arguments: `{"a":${next},"b":1}` }
  })
  for (const result of await runtime.executeAll(calls)) process.stdout.write(`${result.id}\n`)
}
