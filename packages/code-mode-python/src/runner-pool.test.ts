import { availableParallelism } from 'node:os'
import { isInvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { describe, expect, it } from 'vitest'
import { createPythonPtcRuntime } from './create-python-ptc-runtime.js'
import { defaultPoolSize } from './runner-pool.js'

const megabyte = 1024 * 1024

describe('the Python runner pool size', () => {
  it('defaults to one runner per core, never past what admission lets run at once by count or by memory', () => {
    const cores = availableParallelism()
    const roomy = { maxConcurrentRuns: cores + 8, maxSandboxMemoryBytes: (cores + 8) * 100 * megabyte }
    expect(defaultPoolSize({ ...roomy, runMemoryBytes: 100 * megabyte })).toBe(cores)
    expect(defaultPoolSize({ ...roomy, maxConcurrentRuns: 1, runMemoryBytes: 100 * megabyte })).toBe(1)
    expect(defaultPoolSize({ ...roomy, maxSandboxMemoryBytes: 250 * megabyte, runMemoryBytes: 100 * megabyte })).toBe(
      Math.min(cores, 2),
    )
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
