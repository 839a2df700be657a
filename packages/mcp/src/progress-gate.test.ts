import { describe, expect, it } from 'vitest'
import { createProgressGate, MAX_PROGRESS_PER_SECOND } from './progress-gate.js'

describe('createProgressGate', () => {
  it(`passes ${MAX_PROGRESS_PER_SECOND} reports a second, then drops the rest of that second`, () => {
    let time = 0
    const gate = createProgressGate(() => time)
    const passed = Array.from({ length: 100 }, (_, step) => gate({ progress: step })).filter(Boolean)
    expect(passed).toHaveLength(MAX_PROGRESS_PER_SECOND)
    time = 1000
    expect(gate({ progress: 100 })).toEqual({ progress: 100 })
  })

  it('drops reports whose numbers are not finite and cuts long messages', () => {
    const gate = createProgressGate(() => 0)
    expect(gate({ progress: Number.NaN })).toBeUndefined()
    expect(gate({ progress: 1, total: Number.POSITIVE_INFINITY })).toEqual({ progress: 1 })
    expect(gate({ progress: 2, message: 'm'.repeat(5000) })?.message).toHaveLength(1024)
  })
})
