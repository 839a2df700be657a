import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { brandError } from './brand.js'
import { ToolErrorCode } from './error-codes.js'
import { isToolError, ToolError } from './tool-error.js'

class SampleError extends Error {}
const isSampleError = brandError(SampleError, 'BrandTestSample')

describe('brandError', () => {
  it('recognises instances and subclass instances, nothing else', () => {
    class NarrowerError extends SampleError {}
    expect(isSampleError(new SampleError('a'))).toBe(true)
    expect(isSampleError(new NarrowerError('b'))).toBe(true)
    expect(isSampleError(new Error('c'))).toBe(false)
    for (const value of [undefined, null, 0, 'SampleError', {}, () => {}]) expect(isSampleError(value)).toBe(false)
  })

  it('recognises an error built by another copy of the class, where instanceof does not', () => {
    class CopiedSampleError extends Error {}
    const isCopied = brandError(CopiedSampleError, 'BrandTestSample')
    expect(new CopiedSampleError('x') instanceof SampleError).toBe(false)
    expect(isSampleError(new CopiedSampleError('x'))).toBe(true)
    expect(isCopied(new SampleError('y'))).toBe(true)
  })

  it('recognises an error from another realm by the shared symbol registry', () => {
    const foreign = runInNewContext(
      "class E extends Error {}; Object.defineProperty(E.prototype, Symbol.for('qilin-tools.BrandTestSample'), { value: true }); new E('z')",
    )
    expect(foreign instanceof Error).toBe(false)
    expect(isSampleError(foreign)).toBe(true)
  })

  it('adds no own or enumerable key, so logs and snapshots of an error are unchanged', () => {
    const error = new SampleError('quiet')
    expect(Object.getOwnPropertySymbols(error)).toEqual([])
    expect(Object.keys(error)).toEqual([])
    expect({ ...error }).toEqual({})
  })

  it('refuses a plain object carrying the brand as its own key: it has none of the class methods', () => {
    expect(isSampleError({ 'qilin-tools.BrandTestSample': true })).toBe(false)
    expect(isSampleError({ [Symbol.for('qilin-tools.BrandTestSample')]: true, message: 'forged' })).toBe(false)
  })

  it('never throws, whatever a proxy does when asked', () => {
    const hostile = new Proxy(new SampleError('inside'), {
      get() {
        throw new Error('no get')
      },
      getOwnPropertyDescriptor() {
        throw new Error('no descriptor')
      },
    })
    expect(isSampleError(hostile)).toBe(false)
  })
})

describe('a spread copy of a branded error', () => {
  it('is not recognised: it lost the message and the methods the guard promises', () => {
    const original = new ToolError({ code: ToolErrorCode.TOOL_ERROR, message: 'disk full' })
    const copy = { ...original }
    expect((copy as { message?: string }).message).toBeUndefined()
    expect(isToolError(copy)).toBe(false)
  })
})
