import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const example = fileURLToPath(new URL('library-in-20-lines.ts', import.meta.url))

describe('examples/library-in-20-lines.ts', () => {
  it('prints what its comments say', () => {
    const run = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', example], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual([
      [{ type: 'text', text: '{"celsius":12}' }],
      [{ type: 'text', text: '[12,12]' }],
    ])
    expect(run.status).toBe(0)
  })

  it('is the code block the README shows, imports sorted as a reader writes them', () => {
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8')
    const section = readme.split(/^## The library in 20 lines\s*$/m)[1] ?? ''
    const shown = /^```ts\n([\s\S]*?)^```/m.exec(section)?.[1]
    const body = readFileSync(example, 'utf8')
      .split('\n')
      .filter(
        (line) => !line.startsWith('import ') && !line.startsWith('console.log(') && !line.startsWith('await ptc'),
      )
      .join('\n')
    const packageImports = [
      "import { createToolRuntime, defineTool } from 'qilin-tools'",
      "import { createNodePtcRuntime } from '@qilin-tools/code-mode-node'",
    ].join('\n')
    expect(shown).toBe(`${packageImports}\n${body.trimEnd()}\n`)
  })
})
