import { describe, expect, it } from 'vitest'
import { compileSchema } from './compile.js'
import { MAX_ENUM_MEMBERS } from './enum-limit.js'
import { SchemaCompileError } from './schema-compile-error.js'

const members = (count: number) => Array.from({ length: count }, (_, index) => `value-${index}`)

describe('the enum cap', () => {
  it('checks an enum of exactly the cap, on both paths', () => {
    for (const codegen of [true, false]) {
      const compiled = compileSchema({ type: 'string', enum: members(MAX_ENUM_MEMBERS) }, { codegen })
      expect(compiled.validate(`value-${MAX_ENUM_MEMBERS - 1}`)).toEqual({ valid: true })
      expect(compiled.validate(`value-${MAX_ENUM_MEMBERS}`).valid).toBe(false)
    }
  })

  it('refuses one member more in strict mode, naming the count and the cap', () => {
    const compile = () => compileSchema({ properties: { choice: { enum: members(MAX_ENUM_MEMBERS + 1) } } })
    expect(compile).toThrow(SchemaCompileError)
    expect(compile).toThrow(`lists ${MAX_ENUM_MEMBERS + 1} members, over the cap of ${MAX_ENUM_MEMBERS}`)
  })

  it('lists it in lenient mode and leaves it to the sender, on both paths', () => {
    for (const codegen of [true, false]) {
      const compiled = compileSchema(
        { type: 'object', properties: { choice: { type: 'string', enum: members(1_000_000) } } },
        { lenient: true, codegen },
      )
      expect(compiled.unknownKeywords).toEqual([{ path: '/properties/choice', keyword: 'enum' }])
      expect(compiled.validate({ choice: 'anything' })).toEqual({ valid: true })
      expect(compiled.validate({ choice: 7 }).valid).toBe(false)
    }
  })
})
