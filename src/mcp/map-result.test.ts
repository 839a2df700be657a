import { describe, expect, it } from 'vitest'
import { isToolError } from '../errors/tool-error.js'
import { mapCallResult, mapContent } from './map-result.js'

describe('mapCallResult', () => {
  it('keeps text and image parts and uses the text as value without an output schema', () => {
    const mapped = mapCallResult(
      'everything',
      {
        content: [
          { type: 'text', text: 'a tiny image:' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'text', text: 'done' },
        ],
      },
      false,
    )
    expect(mapped.content).toEqual([
      { type: 'text', text: 'a tiny image:' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'text', text: 'done' },
    ])
    expect(mapped.value).toBe('a tiny image:\ndone')
  })

  it('uses structured content as the value when the tool has an output schema', () => {
    const mapped = mapCallResult(
      'memory',
      { content: [{ type: 'text', text: '{"entities":[]}' }], structuredContent: { entities: [] } },
      true,
    )
    expect(mapped.value).toEqual({ entities: [] })
    expect(mapped.content).toEqual([{ type: 'text', text: '{"entities":[]}' }])
  })

  it('fails when a tool with an output schema returns no structured content', () => {
    expect(() => mapCallResult('memory', { content: [{ type: 'text', text: 'x' }] }, true)).toThrow(
      'MCP server "memory" returned no structured content for a tool with an output schema',
    )
  })

  it('turns isError into a TOOL_ERROR carrying the server text', () => {
    let caught: unknown
    try {
      mapCallResult(
        'fs',
        { content: [{ type: 'text', text: 'Access denied - path outside allowed directories' }], isError: true },
        true,
      )
    } catch (error) {
      caught = error
    }
    expect(isToolError(caught)).toBe(true)
    expect(isToolError(caught) && caught.toInfo()).toEqual({
      code: 'TOOL_ERROR',
      message: 'Access denied - path outside allowed directories',
    })
  })

  it('drops a leading "Error: " from the server text, which our own rendering adds back once', () => {
    expect(() =>
      mapCallResult(
        'qilin',
        { content: [{ type: 'text', text: 'Error: this tool always fails' }], isError: true },
        false,
      ),
    ).toThrow(/^this tool always fails$/)
  })

  it('names the server when an error has no text', () => {
    expect(() => mapCallResult('fs', { content: [], isError: true }, false)).toThrow(
      'MCP server "fs" reported an error without a message',
    )
  })
})

describe('mapContent', () => {
  it('keeps audio, links and embedded resources as parts of their own kind, without fields we do not define', () => {
    expect(
      mapContent([
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav', _meta: { x: 1 } },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', annotations: { priority: 1 } },
        { type: 'resource', resource: { uri: 'file:///b.txt', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'AAAA', mimeType: 'application/octet-stream' } },
      ]),
    ).toEqual([
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
      { type: 'resource', resource: { uri: 'file:///b.txt', text: 'inline text' } },
      { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'AAAA', mimeType: 'application/octet-stream' } },
    ])
  })

  it('uses what text can hold as the value without an output schema, leaving media to the parts', () => {
    const mapped = mapCallResult(
      'files',
      {
        content: [
          { type: 'text', text: 'two files:' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
          { type: 'resource', resource: { uri: 'file:///b.txt', mimeType: 'text/plain', text: 'inline text' } },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        ],
      },
      false,
    )
    expect(mapped.value).toBe(
      'two files:\n[resource link a.txt file:///a.txt]\n[resource file:///b.txt (text/plain)]\ninline text',
    )
  })
})
