import { ToolErrorCode } from '../../errors/error-codes.js'
import type { ToolCall, ToolResult } from '../../pipeline/call.js'

/** A 1x1 PNG, base64. */
export const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

/** One turn of parallel calls: a success, one with an image, a failure, a denial and one never run. */
export const CALLS: readonly ToolCall[] = [
  { id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' },
  { id: 'call_2', name: 'screenshot', arguments: { url: 'https://example.com' } },
  { id: 'call_3', name: 'read_file', arguments: '{"path":"missing.txt"}' },
  { id: 'call_4', name: 'delete_file', arguments: '{"path":"a.txt"}' },
  { id: 'call_5', name: 'read_file', arguments: '{"path":"b.txt"}' },
]

const failure = (id: string, name: string, code: ToolErrorCode, message: string): ToolResult => ({
  id,
  name,
  ok: false,
  content: [{ type: 'text', text: `Error: ${message}` }],
  error: { code, message },
  durationMs: 1,
})

/** Results for the first four calls, out of order; the fifth call has none (it was aborted before dispatch). */
export const RESULTS: readonly ToolResult[] = [
  failure('call_4', 'delete_file', ToolErrorCode.DENIED, 'the user denied this call'),
  {
    id: 'call_1',
    name: 'read_file',
    ok: true,
    content: [{ type: 'text', text: 'hello' }],
    value: 'hello',
    durationMs: 2,
  },
  {
    id: 'call_2',
    name: 'screenshot',
    ok: true,
    content: [
      { type: 'text', text: 'Captured the page.' },
      { type: 'image', data: PIXEL, mimeType: 'image/png' },
    ],
    value: null,
    contexts: [
      {
        source: { toolName: 'screenshot', callId: 'call_2' },
        content: [{ type: 'text', text: 'Page title: Example' }],
      },
    ],
    durationMs: 30,
  },
  failure('call_3', 'read_file', ToolErrorCode.TOOL_ERROR, 'ENOENT: missing.txt'),
]
