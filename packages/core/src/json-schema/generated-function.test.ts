import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { codeGenerationCases } from './__fixtures__/code-generation-cases.js'
import { compileSchema } from './compile.js'
import { codeGenerationForbidden, functionFromSource } from './generated-function.js'

const run = promisify(execFile)

describe('functionFromSource', () => {
  it('throws source that does not compile as a bug, and goes on generating', () => {
    let thrown: unknown
    try {
      functionFromSource(['value'], 'return value +;')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Error)
    expect((thrown as Error).message).toMatch(
      /^qilin-tools generated validator source that does not compile \(.+\); this is a bug, please report it with the schema\. Compiling with codegen: false validates without generated code\.$/,
    )
    expect((thrown as Error).cause).toBeInstanceOf(SyntaxError)
    expect(codeGenerationForbidden()).toBe(false)
    expect(functionFromSource<(value: number) => number>(['value'], 'return value + 1;')?.(1)).toBe(2)
  })

  it('where the host forbids code generation, validates with the closure tree exactly as codegen: false does', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--disallow-code-generation-from-strings',
        '--import',
        'tsx',
        fileURLToPath(new URL('./__fixtures__/no-code-generation.ts', import.meta.url)),
      ],
      { timeout: 20_000 },
    )
    const report = JSON.parse(stdout) as {
      refused: string
      askedWithoutCodegen: boolean
      forbidden: boolean
      withoutCodegen: unknown
      withCodegen: unknown
    }
    const expected = codeGenerationCases.map(({ schema, values }) => {
      const compiled = compileSchema(schema, { codegen: false })
      return values.map((value) => compiled.validate(value))
    })
    expect(report.refused).toBe('EvalError')
    // `codegen: false` never asks the host for code generation.
    expect(report.askedWithoutCodegen).toBe(false)
    expect(report.forbidden).toBe(true)
    expect(report.withoutCodegen).toEqual(expected)
    expect(report.withCodegen).toEqual(expected)
    // The expectation is not vacuous: some of these values fail, with issues.
    expect(JSON.stringify(expected)).toContain('"valid":false')
  })
})
