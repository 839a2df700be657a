import { afterAll, describe, expect, it } from 'vitest'
import { TypeStripper } from './type-stripper.js'

const stripper = new TypeStripper()
afterAll(() => stripper.close())

/** The 4 KB program, with no bound in front of the stripper: it traps amaro's WebAssembly instance. */
const corrupting = `${'{'.repeat(2_000)}${'}'.repeat(2_000)}`
const typed = 'const a: number = 1'

describe('TypeStripper', () => {
  it('strips in a worker and reports amaro refusals as data, keeping the worker', async () => {
    expect(await stripper.strip(typed)).toEqual({ kind: 'stripped', javascript: 'const a         = 1' })
    const started = stripper.workersStarted
    expect(await stripper.strip('enum Color { Red }')).toMatchObject({
      kind: 'refused',
      code: 'UnsupportedSyntax',
      startLine: 1,
      startColumn: 0,
    })
    expect(await stripper.strip('let x = ;')).toMatchObject({ kind: 'refused', code: 'InvalidSyntax' })
    expect(stripper.workersStarted).toBe(started)
  })

  it('a fault costs only the faulting program: the next one gets a fresh instance and strips', async () => {
    await stripper.strip(typed)
    const started = stripper.workersStarted
    expect(await stripper.strip(corrupting)).toMatchObject({
      kind: 'fault',
      reason: 'fault',
      message: expect.stringMatching(/out of bounds|call stack/),
    })
    expect(await stripper.strip(typed)).toEqual({ kind: 'stripped', javascript: 'const a         = 1' })
    expect(stripper.workersStarted).toBe(started + 1)
  })

  it('programs queued behind a faulting one are stripped by its replacement', async () => {
    const answers = await Promise.all([
      stripper.strip(typed),
      stripper.strip(corrupting),
      stripper.strip(typed),
      stripper.strip(corrupting),
      stripper.strip(typed),
    ])
    expect(answers.map((answer) => answer.kind)).toEqual(['stripped', 'fault', 'stripped', 'fault', 'stripped'])
  })

  it('a strip past its deadline kills the worker, and the next program strips', async () => {
    // Far apart on purpose: a small program strips in a few ms, the large one takes seconds, whatever the load.
    const hurried = new TypeStripper({ timeoutMs: 250 })
    try {
      expect((await hurried.strip(typed)).kind).toBe('stripped')
      const slow = `${'{'.repeat(256)}${'}'.repeat(256)}\nconst v: Record<string, number> = { a: 1 }\n`.repeat(6000)
      expect(await hurried.strip(slow)).toMatchObject({
        kind: 'fault',
        reason: 'timeout',
        message: 'stripping took longer than 250 ms',
      })
      expect((await hurried.strip(typed)).kind).toBe('stripped')
      expect(hurried.workersStarted).toBe(2)
    } finally {
      await hurried.close()
    }
  })

  it('close ends the worker and a later strip starts a new one', async () => {
    const closing = new TypeStripper()
    expect((await closing.strip(typed)).kind).toBe('stripped')
    await closing.close()
    expect((await closing.strip(typed)).kind).toBe('stripped')
    expect(closing.workersStarted).toBe(2)
    await closing.close()
  })
})
