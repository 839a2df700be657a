import { defineTool } from '../../../definition/define-tool.js'
import { createToolRuntime } from '../../../pipeline/create-tool-runtime.js'
import type { ToolRuntime } from '../../../pipeline/tool-runtime.js'
import { createNodePtcRuntime } from '../../../ptc/node/create-node-ptc-runtime.js'
import { createJsonlSessionLog } from '../../../session-log/jsonl-session-log.js'

/** What a hostile tool result or argument tries: markup that would run if the page ever parsed log text as HTML. */
export const HOSTILE_MARKUP =
  '<img src=x onerror="document.body.dataset.pwned=1"><script>document.body.dataset.pwned=2</script>'

/** The fixture's tools, with the cards their presentCall/presentResult describe. */
export function fixtureTools() {
  return [
    defineTool({
      name: 'add',
      description: 'Add two numbers.',
      parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
      executionMode: 'parallel',
      execute: ({ a, b }) => a + b,
    }),
    defineTool({
      name: 'read_note',
      description: 'Read a note.',
      parameters: { path: { type: 'string', required: true } },
      output: {
        schema: {
          type: 'object',
          properties: { path: { type: 'string', required: true }, text: { type: 'string', required: true } },
        },
      },
      executionMode: 'parallel',
      execute: ({ path }) => ({ path, text: `Notes in ${path}: ${'a long line of notes '.repeat(40)}` }),
      presentCall: ({ path }) => ({ card: 'file', title: `Reading ${path}`, props: { path } }),
      presentResult: (_args, value) => ({
        card: 'file',
        title: 'Note read',
        props: { path: value.path, preview: value.text.slice(0, 60) },
      }),
    }),
    defineTool({
      name: 'echo',
      description: 'Return the text.',
      parameters: { text: { type: 'string', required: true } },
      execute: ({ text }) => text,
    }),
    defineTool({
      name: 'delete_file',
      description: 'Delete a file.',
      parameters: { path: { type: 'string', required: true } },
      execute: () => 'deleted',
    }),
    defineTool({
      name: 'broken',
      description: 'Always fails.',
      parameters: {},
      execute: () => {
        throw new Error('the disk is on fire')
      },
    }),
  ]
}

/** A runtime with the fixture's tools, for the cards (`presentCall`/`presentResult`). */
export function fixtureRuntime(): ToolRuntime {
  const runtime = createToolRuntime()
  for (const tool of fixtureTools()) runtime.register(tool)
  return runtime
}

/** Two code-mode programs with sub-calls (one failing), native calls, a denial and hostile text, really run. */
export async function recordSession(path: string): Promise<void> {
  const sessionLog = createJsonlSessionLog(path)
  const ptcRuntime = createNodePtcRuntime({ poolSize: 0 })
  const runtime = createToolRuntime({
    mode: 'both',
    ptcRuntime,
    sessionLog,
    approve: ({ call }) =>
      call.name === 'delete_file'
        ? { approved: false, reason: 'deletes are off today', decidedBy: 'reviewer@example.com' }
        : { approved: true, decidedBy: 'reviewer@example.com' },
  })
  for (const tool of fixtureTools()) runtime.register(tool)
  runtime.on('tools/pre-execute', ({ call }) =>
    call.name === 'delete_file' || call.name === 'echo'
      ? { action: 'ask', reason: `${call.name} needs a person` }
      : undefined,
  )
  try {
    await runtime.execute({ id: 'call-1', name: 'add', arguments: { a: 1, b: 2 } })
    await runtime.execute({ id: 'call-2', name: 'read_note', arguments: { path: 'notes/today.md' } })
    await runtime.execute({ id: 'call-3', name: 'echo', arguments: { text: HOSTILE_MARKUP } })
    await runtime.execute({ id: 'call-4', name: 'delete_file', arguments: { path: '/etc/passwd' } })
    await runtime.execute({ id: 'call-5', name: 'broken', arguments: {} })
    await runtime.execute({ id: 'call-6', name: 'nope', arguments: {} })
    const program = `const sum = await tools.add({ a: 2, b: 3 })
const note = await tools.read_note({ path: 'notes/plan.md' })
try { await tools.broken({}) } catch (error) { console.log('broken said', error.code) }
return { sum, length: note.text.length }`
    await runtime.execute({ id: 'prog-1', name: 'run_code', arguments: { code: program, description: 'sum and read' } })
    await runtime.execute({
      id: 'prog-2',
      name: 'run_code',
      arguments: { code: 'return await tools.add({ a: 40, b: 2 })', description: 'the answer' },
    })
    await runtime.execute({ id: 'call-7', name: 'add', arguments: '{"a": "two"}' })
  } finally {
    await sessionLog.close()
    await ptcRuntime.close()
  }
}
