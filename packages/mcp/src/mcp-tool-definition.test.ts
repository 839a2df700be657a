import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { describe, expect, it } from 'vitest'
import { expectFailure } from '../../../test/support/settled-result.js'
import { mcpToolDefinition } from './mcp-tool-definition.js'
import { mcpToolName } from './tool-name.js'

/** The shared `tools/list` dumps, beside the repository as `../shared/mcp-toolsets/`. */
const toolsets = new URL('../../../../shared/mcp-toolsets/', import.meta.url).pathname
const dumps = readdirSync(toolsets)
  .filter((file) => file.endsWith('.json') && !file.startsWith('_'))
  .map((file) => JSON.parse(readFileSync(join(toolsets, file), 'utf8')) as { server: string; tools: Tool[] })

const unreachable = () => Promise.reject(new Error('not connected'))
const define = (server: string, tool: Tool) =>
  mcpToolDefinition({ serverName: server, name: mcpToolName(server, tool.name), tool, call: unreachable })

describe('mcpToolDefinition', () => {
  it.each(dumps.map((dump) => [dump.server, dump] as const))('accepts every tool %s lists', (_server, dump) => {
    for (const tool of dump.tools) {
      const definition = define(dump.server, tool)
      expect(definition.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
      expect(definition.parameters.type).toBe('object')
      // The server's schema whole, its dialect included (SEP-1613).
      expect(definition.parameters.$schema).toBe(tool.inputSchema.$schema)
    }
  })

  it.each(dumps.map((dump) => [dump.server, dump] as const))('registers every tool %s lists', (_server, dump) => {
    const runtime = createToolRuntime()
    for (const tool of dump.tools) runtime.register(define(dump.server, tool))
    expect(runtime.schemas()).toHaveLength(dump.tools.length)
  })

  it('carries title, annotations and the schemas, and schedules by readOnlyHint', () => {
    const memory = dumps.find((dump) => dump.server === 'memory')!
    const create = define('memory', memory.tools.find((tool) => tool.name === 'create_entities')!)
    const read = define('memory', memory.tools.find((tool) => tool.name === 'read_graph')!)
    expect(create.executionMode).toBe('exclusive')
    expect(read.executionMode).toBe('parallel')
    expect({
      name: create.name,
      title: create.title,
      description: create.description,
      annotations: create.annotations,
      parameters: create.parameters,
      output: create.output?.schema,
    }).toMatchSnapshot()
  })

  it('drops annotation keys it does not know and describes a tool without a description by its title', () => {
    const definition = define('s', {
      name: 't',
      title: 'A title',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, title: 'Hint title', ...({ vendorHint: true } as object) },
    })
    expect(definition.annotations).toEqual({ readOnlyHint: true, title: 'Hint title' })
    expect(definition.description).toBe('A title')
    expect(definition.output?.schema).toEqual({ type: 'string' })
  })

  it('registers a tool whose schema uses keywords the validator does not support, and shows them to the model', async () => {
    const runtime = createToolRuntime()
    const inputSchema = {
      type: 'object' as const,
      properties: { tags: { type: 'object', patternProperties: { '^t': {} } }, limit: { type: 'integer' } },
    }
    runtime.register(define('s', { name: 'odd', inputSchema }))
    expect(runtime.schemas()[0]?.parameters).toEqual(inputSchema)
    const invalid = await runtime.execute({ id: 'c1', name: 's__odd', arguments: { limit: 'ten' } })
    expect(expectFailure(invalid).error.code).toBe('INVALID_ARGUMENTS')
  })

  it('turns a server error result into a thrown TOOL_ERROR', async () => {
    const definition = mcpToolDefinition({
      serverName: 'srv',
      name: 'srv__t',
      tool: { name: 't', inputSchema: { type: 'object' } },
      call: () => Promise.resolve({ content: [{ type: 'text', text: 'no such file' }], isError: true }),
    })
    const exec = {
      signal: new AbortController().signal,
      callId: 'c',
      toolName: 'srv__t',
      agentId: undefined,
      correlationId: 'x',
      escalated: false,
    }
    await expect(definition.execute({}, exec)).rejects.toMatchObject({ code: 'TOOL_ERROR', message: 'no such file' })
  })
})
