import { EventEmitter } from 'node:events'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { STOP_SIGNALS, type StopSignalName, watchStopSignals } from './stop-signal.js'

let source: EventEmitter
let forced: { signal: StopSignalName; why: string }[]
beforeEach(() => {
  vi.useFakeTimers()
  source = new EventEmitter()
  forced = []
})
afterEach(() => vi.useRealTimers())

const watch = () => watchStopSignals({ source, force: (signal, why) => forced.push({ signal, why }), graceMs: 5_000 })

describe('watchStopSignals', () => {
  it('maps each stop signal to 128 plus its number', () => {
    expect(STOP_SIGNALS).toEqual({ SIGHUP: 129, SIGINT: 130, SIGTERM: 143 })
  })

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('aborts on %s and remembers it', (name) => {
    const stop = watch()
    expect(stop.signal.aborted).toBe(false)
    source.emit(name)
    expect(stop.signal.aborted).toBe(true)
    expect(String(stop.signal.reason)).toContain(`stopped by ${name}`)
    expect(stop.received()).toBe(name)
    stop.dispose()
  })

  it('keeps the first signal when others follow', () => {
    const stop = watch()
    source.emit('SIGTERM')
    source.emit('SIGINT')
    expect(stop.received()).toBe('SIGTERM')
    stop.dispose()
  })

  it('takes a repeat inside the window as the same delivery, and a later one as insisting', () => {
    const stop = watch()
    source.emit('SIGINT')
    vi.advanceTimersByTime(100)
    source.emit('SIGINT')
    expect(forced).toEqual([])
    vi.advanceTimersByTime(500)
    source.emit('SIGINT')
    expect(forced).toEqual([{ signal: 'SIGINT', why: 'a second stop signal (SIGINT) arrived while closing' }])
    stop.dispose()
  })

  it('forces a different second signal at once', () => {
    const stop = watch()
    source.emit('SIGINT')
    source.emit('SIGTERM')
    expect(forced.map((entry) => entry.signal)).toEqual(['SIGINT'])
    stop.dispose()
  })

  it('forces the exit when closing outlasts the grace period, once', () => {
    const stop = watch()
    source.emit('SIGHUP')
    vi.advanceTimersByTime(4_999)
    expect(forced).toEqual([])
    vi.advanceTimersByTime(1)
    expect(forced).toEqual([{ signal: 'SIGHUP', why: 'closing took longer than 5000 ms' }])
    source.emit('SIGHUP')
    expect(forced).toHaveLength(1)
    stop.dispose()
  })

  it('does nothing more once disposed: no listeners left, no pending force', () => {
    const stop = watch()
    source.emit('SIGINT')
    stop.dispose()
    vi.advanceTimersByTime(10_000)
    expect(forced).toEqual([])
    expect(['SIGINT', 'SIGTERM', 'SIGHUP'].map((name) => source.listenerCount(name))).toEqual([0, 0, 0])
  })
})
