import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { jsonSchema } from 'qilin-tools/internal/schema/json-schema-spec.js'
import { afterEach, describe, expect, it } from 'vitest'
import { createSessionServer } from './mcp-session-server.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

/** A served runtime whose approver and tool bodies record the arguments they saw, as JSON text. */
async function servedProbe() {
  const approver: string[] = []
  const bodies: { text: string; limit: unknown }[] = []
  const runtime = createToolRuntime({
    approve: ({ call }) => {
      approver.push(JSON.stringify(call.arguments))
      return true
    },
  })
  const probe = (args: unknown) => {
    bodies.push({ text: JSON.stringify(args), limit: (args as Record<string, unknown>).limit })
    return 'done'
  }
  runtime.register(
    defineTool({
      name: 'closed',
      description: 'Takes a label.',
      parameters: { label: { type: 'string', required: true }, limit: { type: 'integer', maximum: 5 } },
      execute: probe,
    }),
  )
  runtime.register(
    defineTool({
      name: 'open',
      description: 'Takes any object.',
      parameters: jsonSchema({ type: 'object' }),
      execute: probe,
    }),
  )
  runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'check' }))
  const server = createSessionServer(runtime)
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  await client.connect(clientSide)
  closers.push(
    () => client.close(),
    () => server.close(),
  )
  return { client, approver, bodies }
}

const HOSTILE_TEXT = '{"label":"x","__proto__":{"limit":3}}'

// The SDK's request schema (zod) drops an own "__proto__" key from `arguments` before the handler runs, without
// touching the prototype: whatever reaches the pipeline, the approver and the body must see the same object.
describe('MCP tools/call arguments with an own "__proto__" key', () => {
  it.each(['closed', 'open'])(
    'show the %s tool and its approver the same object, with no hidden members',
    async (name) => {
      const { client, approver, bodies } = await servedProbe()
      const result = await client.callTool({ name, arguments: JSON.parse(HOSTILE_TEXT) })
      expect(result.isError).toBeFalsy()
      expect(approver).toHaveLength(1)
      expect(bodies).toEqual([{ text: approver[0], limit: undefined }])
      expect(JSON.parse(approver[0]!)).toEqual({ label: 'x' })
    },
  )

  it('leave the host serving: the next call runs', async () => {
    const { client, bodies } = await servedProbe()
    await client.callTool({ name: 'closed', arguments: JSON.parse(HOSTILE_TEXT) })
    const next = await client.callTool({ name: 'closed', arguments: { label: 'y' } })
    expect(next.isError).toBeFalsy()
    expect(bodies.at(-1)).toEqual({ text: '{"label":"y"}', limit: undefined })
  })
})
