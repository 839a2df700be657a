import { z } from 'zod'
import { defineTool } from '../../../definition/define-tool.js'
import type { AnyToolDefinition } from '../../../definition/tool-definition.js'
import { createToolRuntime } from '../../../pipeline/create-tool-runtime.js'
import { createMemorySessionLog } from '../../../session-log/memory-session-log.js'

/** The calls each adapter test makes, and what the model must read back for each. */
export const scriptedCalls = [
  { id: 'call_add', name: 'add', arguments: { a: 2, b: 3 } },
  { id: 'call_invalid', name: 'add', arguments: { a: 'two', b: 3 } },
  { id: 'call_lookup', name: 'lookup', arguments: { city: 'Oslo' } },
  { id: 'call_slow', name: 'slow', arguments: {} },
  { id: 'call_broken', name: 'broken', arguments: {} },
] as const

/** Deletes files: asks for approval through `needsApproval`, the way a definition says it once that option lands. */
export function withApproval(definition: AnyToolDefinition): AnyToolDefinition {
  return Object.freeze({ ...definition, needsApproval: true })
}

/**
 * A runtime with the agent's tools (a DSL schema, a zod schema, one that times out, one that throws, one that needs
 * approval) and everything a test looks at: the bodies that ran, the guard's calls, the approver's, the session log.
 * The approver answers `approve` (no, unless told).
 */
export function observedRuntime({ approve = false } = {}) {
  const sessionLog = createMemorySessionLog()
  const ran: string[] = []
  const guarded: string[] = []
  const asked: string[] = []
  const runtime = createToolRuntime({
    sessionLog,
    approve: ({ call }) => {
      asked.push(call.id)
      return approve
    },
  })
  runtime.register(
    defineTool({
      name: 'add',
      description: 'Adds two integers',
      parameters: { a: { type: 'integer', required: true }, b: { type: 'integer', required: true } },
      execute: ({ a, b }, { callId }) => {
        ran.push(callId)
        return a + b
      },
    }),
  )
  runtime.register(
    defineTool({
      name: 'lookup',
      description: 'Weather for a city',
      parameters: z.object({ city: z.string().min(2) }),
      execute: ({ city }, { callId }) => {
        ran.push(callId)
        return { city, sunny: true }
      },
    }),
  )
  runtime.register(
    defineTool({
      name: 'slow',
      description: 'Never finishes in time',
      parameters: {},
      timeoutMs: 50,
      execute: (_args, { callId, signal }) => {
        ran.push(callId)
        return new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('late')))
      },
    }),
  )
  runtime.register(
    defineTool({
      name: 'broken',
      description: 'Always throws',
      parameters: {},
      execute: (_args, { callId }) => {
        ran.push(callId)
        throw new Error('disk on fire')
      },
    }),
  )
  runtime.register(
    withApproval(
      defineTool({
        name: 'delete_file',
        description: 'Deletes a file',
        parameters: { path: { type: 'string', required: true } },
        execute: ({ path }, { callId }) => {
          ran.push(callId)
          return `deleted ${path}`
        },
      }),
    ),
  )
  // What the pipeline does for `needsApproval` once it lands, until then a listener that asks.
  runtime.on('tools/pre-execute', ({ definition }) =>
    (definition as { needsApproval?: boolean }).needsApproval === true
      ? { action: 'ask', reason: 'deletes a file' }
      : undefined,
  )
  runtime.guard((call) => {
    guarded.push(call.id)
    return undefined
  })
  return { runtime, sessionLog, ran, guarded, asked }
}

/** The ids of the calls the session log saw settle, with their error codes (`OK` for a success). */
export function settledCalls(log: ReturnType<typeof createMemorySessionLog>): [string, string][] {
  return log.records.flatMap((record) =>
    record.type === 'tool.call.settled' ? [[record.id, record.ok ? 'OK' : (record.error?.code ?? '?')]] : [],
  )
}

/** What our pipeline itself answers to each scripted call, as text: what every adapter must show the model. */
export async function pipelineTexts(): Promise<Record<string, string>> {
  const { runtime } = observedRuntime()
  const results = await Promise.all(scriptedCalls.map((call) => runtime.execute(call)))
  return Object.fromEntries(
    results.map((result) => [
      result.id,
      result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n\n'),
    ]),
  )
}
