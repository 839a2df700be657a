import { describe, expect, it } from 'vitest'
import { LineSplitter, MAX_LINE_BYTES } from './log-lines.js'
import { MAX_MALFORMED_LISTED, SessionModel } from './session-model.js'

const words = (text: string) => text.split(/\s+/).filter(Boolean).length

function model(lines: readonly (string | object)[]) {
  const session = new SessionModel(words)
  const splitter = new LineSplitter()
  const text = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')
  for (const line of splitter.push(Buffer.from(`${text}\n`))) session.add(line)
  return session
}

const started = (id: string, name: string, extra: object = {}) => ({
  type: 'tool.call.started',
  id,
  name,
  arguments: {},
  at: 1000,
  ...extra,
})
const settled = (id: string, name: string, extra: object = {}) => ({
  type: 'tool.call.settled',
  id,
  name,
  ok: true,
  content: [{ type: 'text', text: 'two words' }],
  durationMs: 5,
  at: 1005,
  ...extra,
})

describe('SessionModel', () => {
  it('joins started, approval and settled records, and nests sub-calls under their program', () => {
    const session = model([
      started('p', 'run_code'),
      started('p:ptc:1', 'read', { parentId: 'p' }),
      settled('p:ptc:1', 'read', { parentId: 'p' }),
      {
        type: 'tool.call.approval',
        id: 'p',
        name: 'run_code',
        reasons: ['escalate'],
        verdict: 'approved',
        waitedMs: 3,
      },
      settled('p', 'run_code'),
      settled('q', 'add', { ok: false, error: { code: 'DENIED', message: 'no' } }),
    ])
    expect(session.summaries()).toMatchObject([
      { index: 0, name: 'run_code', children: [1], state: 'ok', approval: { verdict: 'approved' } },
      { index: 1, parent: 0, state: 'ok' },
      { index: 2, name: 'add', state: 'failed', code: 'DENIED', startedAt: 1000 },
    ])
    expect(session.calls[0]!.keptOut).toEqual({ bytes: 9, tokens: 2 })
    expect(session.summaries()[0]).not.toHaveProperty('content')
  })

  it('prefers the figures the log holds over counting again', () => {
    const session = model([
      started('p', 'run_code'),
      settled('p', 'run_code', { metadata: { subCalls: 0, bytesKeptOut: 77, tokensKeptOut: 11 } }),
    ])
    expect(session.calls[0]!.keptOut).toEqual({ bytes: 77, tokens: 11 })
  })

  it('shows hostile and malformed lines as such and keeps reading', () => {
    const session = model([
      'not json',
      '[1,2]',
      'null',
      { type: 'tool.call.started', id: 7, name: 'x' },
      { type: 'tool.call.started', id: 'a', name: 'x', agentId: { toString: 1 } },
      { type: '<script>' },
      { type: 'tool.call.approval', id: 'never', name: 'x' },
      { type: 'tool.call.started', id: 'i'.repeat(10_000), name: '__proto__', at: 'soon' },
      started('ok', 'fine'),
    ])
    expect(session.malformed.map((line) => [line.line, line.reason])).toEqual([
      [1, expect.stringMatching(/^not JSON/)],
      [2, 'not a JSON object'],
      [3, 'not a JSON object'],
      [4, 'tool.call.started record without a string "id"'],
      [5, '"agentId" is not a string'],
      [6, 'unknown record type "<script>"'],
      [7, 'approval for call "never", which has not started'],
    ])
    expect(session.calls.map((call) => [call.id.length, call.name, call.startedAt])).toEqual([
      [500, '__proto__', undefined],
      [2, 'fine', 1000],
    ])
  })

  it('lists the first malformed lines and only counts the rest', () => {
    const session = model(Array.from({ length: MAX_MALFORMED_LISTED * 5 }, (_, index) => `garbage ${index}`))
    expect(session.malformed).toHaveLength(MAX_MALFORMED_LISTED)
    expect(session.malformedCount).toBe(MAX_MALFORMED_LISTED * 5)
  })

  it('drops a line longer than the bound as it streams, holding only its start', () => {
    const splitter = new LineSplitter()
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    let lines = splitter.push(Buffer.from('{"type":'))
    for (let sent = 0; sent < MAX_LINE_BYTES * 3; sent += chunk.length) lines = lines.concat(splitter.push(chunk))
    expect(lines).toEqual([])
    expect(splitter.pendingBytes).toBeGreaterThan(MAX_LINE_BYTES * 3)
    const [line, next] = splitter.push(Buffer.from('\n{"ok":1}\n'))
    expect(line).toMatchObject({ ok: false, number: 1, reason: expect.stringMatching(/longer than 1048576$/) })
    expect(line!.ok === false && line!.preview.length).toBeLessThanOrEqual(201)
    expect(next).toEqual({ ok: true, number: 2, text: '{"ok":1}' })
  })
})
