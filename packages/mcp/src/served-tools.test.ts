import type { AnyToolDefinition } from 'qilin-tools/internal/definition/tool-definition.js'
import type { ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import { describe, expect, it } from 'vitest'
import { toCallToolResult, toMcpTools } from './served-tools.js'

const base = { id: 'c', name: 't', durationMs: 1 }

describe('toMcpTools', () => {
  it('adds title, annotations and object-rooted output schemas, and folds the sections into run_code', () => {
    const definitions: Record<string, Partial<AnyToolDefinition>> = {
      add: {
        title: 'Add',
        annotations: { readOnlyHint: true },
        output: { schema: { type: 'object', properties: { sum: { type: 'number' } } } },
      },
      shout: { output: { schema: { type: 'string' } } },
    }
    const tools = toMcpTools(
      {
        tools: [
          { name: 'add', description: 'Adds.', parameters: { type: 'object' } },
          { name: 'run_code', description: 'Runs a program.', parameters: { type: 'object' } },
          { name: 'shout', description: 'Shouts.', parameters: { type: 'object' } },
        ],
        sections: [
          { id: 'tools:sdk', order: 5000, text: 'SDK', interpolate: false },
          { id: 'tools:ptc-only', order: 4000, text: 'Only run_code.', interpolate: false },
        ],
      },
      (name) => definitions[name] as AnyToolDefinition | undefined,
    )
    expect(tools).toEqual([
      {
        name: 'add',
        title: 'Add',
        description: 'Adds.',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { sum: { type: 'number' } } },
        annotations: { readOnlyHint: true },
      },
      { name: 'run_code', description: 'Runs a program.\n\nOnly run_code.\n\nSDK', inputSchema: { type: 'object' } },
      { name: 'shout', description: 'Shouts.', inputSchema: { type: 'object' } },
    ])
  })
})

describe('toCallToolResult', () => {
  it('maps a failure to an isError result with the model-facing text', () => {
    const result: ToolResult = {
      ...base,
      ok: false,
      content: [{ type: 'text', text: 'Error: boom' }],
      error: { code: 'TOOL_ERROR', message: 'boom' },
    }
    expect(toCallToolResult(result, true)).toEqual({ content: [{ type: 'text', text: 'Error: boom' }], isError: true })
  })

  it('serializes a structured value as the text content instead of the rendering, keeping images', () => {
    const result: ToolResult = {
      ...base,
      ok: true,
      value: { path: 'notes.txt', lines: ['hello'], truncated: false },
      content: [
        { type: 'text', text: '1\thello' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      contexts: [{ content: [{ type: 'text', text: 'Note: notes.txt changed since you last read it.' }] }],
    }
    const mapped = toCallToolResult(result, true)
    expect(mapped.structuredContent).toEqual(result.value)
    expect(mapped.content).toMatchSnapshot()
    expect(JSON.parse((mapped.content[0] as { text: string }).text)).toEqual(mapped.structuredContent)
    expect(mapped.content.some((block) => block.type === 'text' && block.text === '1\thello')).toBe(false)
    // Without an object-rooted output schema the rendering stays what the client reads.
    expect(toCallToolResult(result, false).content[0]).toEqual({ type: 'text', text: '1\thello' })
  })

  it('adds structured content for object values and appends contexts after the content', () => {
    const result: ToolResult = {
      ...base,
      ok: true,
      value: { sum: 3 },
      content: [{ type: 'text', text: '{"sum":3}' }],
      contexts: [{ content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }],
    }
    expect(toCallToolResult(result, true)).toEqual({
      content: [
        { type: 'text', text: '{"sum":3}' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      structuredContent: { sum: 3 },
    })
    expect(toCallToolResult(result, false)).not.toHaveProperty('structuredContent')
  })
})
