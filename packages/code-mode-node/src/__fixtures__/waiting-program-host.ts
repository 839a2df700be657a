// Runs one code-mode program whose second sub-call needs approval, with a JSON Lines session log, and an approver
// that never answers. Prints `waiting` once the approver is asked; the parent then kills this process with SIGKILL.
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { createJsonlSessionLog } from 'qilin-tools/internal/session-log/jsonl-session-log.js'
import { createNodePtcRuntime } from '../create-node-ptc-runtime.js'

const path = process.argv[2]
if (path === undefined) throw new Error('usage: waiting-program-host <log path>')
const runtime = createToolRuntime({
  mode: 'ptc',
  ptcRuntime: createNodePtcRuntime({ poolSize: 0 }),
  sessionLog: createJsonlSessionLog(path),
  approve: () => {
    process.stdout.write('waiting\n')
    return new Promise<boolean>(() => {})
  },
})
runtime.register(
  defineTool({
    name: 'add',
    description: 'Add two numbers.',
    parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
    execute: ({ a, b }) => a + b,
  }),
)
runtime.register(
  defineTool({
    name: 'delete_file',
    description: 'Delete a file.',
    parameters: { path: { type: 'string', required: true } },
    needsApproval: true,
    execute: () => 'deleted',
  }),
)
const code = `const sum = await tools.add({ a: 1, b: 2 })
await tools.delete_file({ path: 'notes.txt' })
return sum`
await runtime.execute({ id: 'program-1', name: 'run_code', arguments: { code, description: 'add, then delete' } })
process.stdout.write('settled\n')
