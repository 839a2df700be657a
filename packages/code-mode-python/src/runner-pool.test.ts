import { totalmem } from 'node:os'
import { isInvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { describe, expect, it } from 'vitest'
import { createPythonPtcRuntime } from './create-python-ptc-runtime.js'
import { defaultPoolSize, IDLE_RUNNER_BYTES, IDLE_RUNNERS_MEMORY_SHARE } from './runner-pool.js'

const megabyte = 1024 * 1024

describe('the Python runner pool size', () => {
  it('defaults to one runner per run admitted at once, by count and by memory, whatever the cores', () => {
    const machine = 24 * 1024 * megabyte
    const roomy = { maxConcurrentRuns: 8, maxSandboxMemoryBytes: 8 * 100 * megabyte, machineMemoryBytes: machine }
    expect(defaultPoolSize({ ...roomy, runMemoryBytes: 100 * megabyte })).toBe(8)
    expect(defaultPoolSize({ ...roomy, maxConcurrentRuns: 1, runMemoryBytes: 100 * megabyte })).toBe(1)
    expect(defaultPoolSize({ ...roomy, maxSandboxMemoryBytes: 250 * megabyte, runMemoryBytes: 100 * megabyte })).toBe(2)
  })

  it('keeps idle runners within 1/64 of the machine memory at 32 MiB each, and at least one', () => {
    const many = { maxConcurrentRuns: 1000, maxSandboxMemoryBytes: 1000 * megabyte, runMemoryBytes: megabyte }
    expect(IDLE_RUNNER_BYTES * IDLE_RUNNERS_MEMORY_SHARE ** -1).toBe(2048 * megabyte)
    expect(defaultPoolSize({ ...many, machineMemoryBytes: 24 * 1024 * megabyte })).toBe(12)
    expect(defaultPoolSize({ ...many, machineMemoryBytes: 4096 * megabyte - 1 })).toBe(1)
    expect(defaultPoolSize({ ...many, machineMemoryBytes: 512 * megabyte })).toBe(1)
    expect(defaultPoolSize({ ...many })).toBe(Math.max(1, Math.floor(totalmem() / (2048 * megabyte))))
  })

  it('refuses a pool size that is not a whole number from 0 up, naming it', () => {
    for (const poolSize of [-1, 2.5, Number.NaN]) {
      let thrown: unknown
      try {
        createPythonPtcRuntime({ poolSize, confinement: 'none' })
      } catch (error) {
        thrown = error
      }
      expect(isInvalidArgumentError(thrown)).toBe(true)
      expect((thrown as Error).message).toBe(`poolSize must be a whole number of at least 0, got ${String(poolSize)}`)
    }
  })
})
