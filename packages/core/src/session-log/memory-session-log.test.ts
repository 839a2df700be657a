import { describe, expect, it } from 'vitest'
import { createMemorySessionLog } from './memory-session-log.js'

describe('memory session log', () => {
  it('keeps records in order and clears', () => {
    const log = createMemorySessionLog()
    log.append({ type: 'tool.call.started', id: 'a', name: 'n', arguments: {}, at: 1 })
    log.append({ type: 'tool.call.settled', id: 'a', name: 'n', ok: true, content: [], durationMs: 0, at: 2 })
    expect(log.records.map((record) => record.type)).toEqual(['tool.call.started', 'tool.call.settled'])
    log.clear()
    expect(log.records).toEqual([])
  })
})
