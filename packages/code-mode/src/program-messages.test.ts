import { describe, expect, it } from 'vitest'
import { readProgramMessage } from './program-messages.js'
import { defaultPtcLimits } from './ptc-limits.js'

const read = (raw: unknown) => readProgramMessage(raw, defaultPtcLimits)

describe('readProgramMessage', () => {
  it.each([
    [{ t: 'started' }],
    [{ t: 'out', text: 'a line\n' }],
    [{ t: 'call', id: 1, name: 'add', args: { a: 1 } }],
    [{ t: 'timer', id: 3, ms: 0 }],
    [{ t: 'clear', id: 3 }],
    [{ t: 'done' }],
    [{ t: 'done', value: null }],
    [{ t: 'done', value: { deep: [1, 2] } }],
    [{ t: 'done', error: { kind: 'runtime', message: 'Error: boom' } }],
  ])('accepts %j', (message) => {
    expect(read(message)).toEqual({ ok: true, message })
  })

  it.each([
    [{ t: 'out', text: 1 }, 'a "out" message whose text is not a string', false],
    [{ t: 'out', text: 'x'.repeat(defaultPtcLimits.maxOutputBytes + 2) }, 'whose text is longer than', false],
    [{ t: 'out' }, 'a "out" message without its text', false],
    [{ t: 'call', id: 1.5, name: 'add', args: {} }, 'whose id is not a message id', false],
    [{ t: 'call', id: 1, name: 'x'.repeat(1025), args: {} }, 'whose name is longer than 1024', false],
    [{ t: 'call', id: 1, name: 'add' }, 'without its args', false],
    [{ t: 'timer', id: 1, ms: Number.POSITIVE_INFINITY }, 'whose ms is not a duration', false],
    [{ t: 'timer', id: 1, ms: -1 }, 'whose ms is not a duration', false],
    [{ t: 'timer', id: '1', ms: 1 }, 'whose id is not a message id', false],
    [{ t: 'clear', id: 1, extra: 1 }, 'with a field it does not have ("extra")', false],
    [{ t: 'call', id: 1, name: 'add', args: {}, extra: 1 }, 'with a field it does not have ("extra")', false],
    [{ t: 'call', id: 1, name: 'add', argz: {} }, 'with a field it does not have ("argz")', false],
    [{ t: 'done', value: 1, extra: 1 }, 'with a field it does not have ("extra")', true],
    [{ t: 'started', text: '' }, 'with a field it does not have ("text")', false],
    [{ t: 'done', value: 1, error: { kind: 'runtime', message: '' } }, 'with both a value and an error', true],
    [{ t: 'done', error: 'boom' }, 'whose error is not an object', true],
    [{ t: 'done', error: { kind: 'runtime', message: 'x', more: 1 } }, 'needs exactly kind and message', true],
    [{ t: 'done', error: { kind: 'x'.repeat(65), message: '' } }, 'kind is longer than 64', true],
    [{ t: 'toString' }, 'a message of "toString" kind', false],
    [{ t: 'ready' }, 'a message of "ready" kind', false],
    [{ t: 7 }, 'a message of no kind', false],
    [[1], 'a message that is not an object', false],
    [null, 'a message that is not an object', false],
  ])('refuses %j', (raw, problem, terminal) => {
    const result = read(raw)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problem).toContain(problem)
    expect(result.terminal).toBe(terminal)
  })

  it('reads an inherited field name as no field: a message cannot name Object.prototype members', () => {
    expect(read(JSON.parse('{"t":"out","text":"x","__proto__":{"t":"done"}}'))).toMatchObject({ ok: false })
    expect(read({ t: 'constructor' })).toMatchObject({ ok: false, problem: 'a message of "constructor" kind' })
  })
})
