import { describe, expect, it } from 'vitest'
import { createTimeSlice } from './time-slice.js'

describe('createTimeSlice', () => {
  it('is due once about 8 ms of work have passed, and pausing lets a timer run', async () => {
    const slice = createTimeSlice(1)
    expect(slice.due()).toBe(false)
    const started = performance.now()
    while (performance.now() - started < 9) {}
    expect(slice.due()).toBe(true)
    let fired = false
    setTimeout(() => {
      fired = true
    }, 0)
    await new Promise((resolve) => setTimeout(resolve, 1))
    await slice.pause(new AbortController().signal)
    expect(fired).toBe(true)
  })

  it('reads the clock only every checkEvery calls', () => {
    const slice = createTimeSlice(1000)
    const started = performance.now()
    while (performance.now() - started < 9) {}
    const answers = Array.from({ length: 1000 }, () => slice.due())
    expect(answers.indexOf(true)).toBe(999)
  })

  it('throws the abort reason after a pause', async () => {
    const controller = new AbortController()
    controller.abort(new Error('stopped'))
    await expect(createTimeSlice().pause(controller.signal)).rejects.toThrow('stopped')
  })
})
