import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { readProgram } from './program-source.js'

describe('readProgram', () => {
  it('erases module-only lines and keeps the line numbers', async () => {
    const source = "import type { X } from './x.js'\nconst a = await tools.glob({ pattern: '*' })\nexport {}\n"
    expect(await readProgram('-', undefined, Readable.from([source]))).toEqual({
      code: "\nconst a = await tools.glob({ pattern: '*' })\n\n",
      language: 'typescript',
    })
  })

  it('takes the language from --lang or the extension', async () => {
    expect((await readProgram('-', 'py', Readable.from(['print(1)']))).language).toBe('python')
    await expect(readProgram('program.rb', undefined, Readable.from([]))).rejects.toThrow(
      'run: cannot tell the language of "program.rb" from its extension; pass --lang ts or --lang py',
    )
    await expect(readProgram('-', 'rust', Readable.from([]))).rejects.toThrow(
      'run: --lang must be ts or py (got "rust")',
    )
  })

  it('names a missing file', async () => {
    await expect(readProgram('/nowhere/p.ts', undefined, Readable.from([]))).rejects.toThrow(
      'run: cannot read /nowhere/p.ts: no such file',
    )
  })
})
