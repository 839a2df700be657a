import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTempProject, ensureBuiltCli, runBuiltCli, type TempProject } from './support/built-cli.js'
import { hasSystemPart } from './support/system-requirement.js'

let project: TempProject
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject({ 'a.txt': 'a' })
})
afterEach(() => project.dispose())

const sdk = (...args: string[]) => runBuiltCli(['sdk', ...args], { cwd: project.directory })
const toolkit = ['bash', 'edit_file', 'file_info', 'glob', 'grep', 'list_directory', 'read_file', 'write_file']

interface Part {
  kind: 'tool' | 'section'
  name: string
  text: string
  tokens: number
}

describe('qilin-tools sdk', () => {
  it('shows every part of every mode with its o200k token count', async () => {
    const result = await sdk('--json')
    expect(result.code).toBe(0)
    const { modes } = JSON.parse(result.stdout) as { modes: { mode: string; parts: Part[]; tokens: number }[] }
    const names = (mode: string, kind: Part['kind']) =>
      modes
        .find((view) => view.mode === mode)
        ?.parts.filter((part) => part.kind === kind)
        .map((part) => part.name)
    expect(names('native', 'tool')).toEqual(toolkit)
    expect(names('native', 'section')).toEqual([])
    expect(names('ptc', 'tool')).toEqual(['run_code'])
    expect(names('ptc', 'section')).toEqual(['tools:ptc-only', 'tools:sdk'])
    expect(names('both', 'tool')).toEqual([...toolkit, 'run_code'])
    for (const view of modes) {
      for (const part of view.parts) expect(part.tokens).toBeGreaterThan(0)
      expect(view.tokens).toBe(view.parts.reduce((total, part) => total + part.tokens, 0))
    }
    const sdkSection = modes.find((view) => view.mode === 'ptc')?.parts.find((part) => part.name === 'tools:sdk')
    expect(sdkSection?.text).toContain('read_file(args: {')
  })

  it('prints native and ptc in full and every mode side by side, the same bytes every time', async () => {
    const first = await sdk()
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^=== native: 8 tools, 0 sections, \d+ tokens ===\n/)
    expect(first.stdout).toMatch(/\n=== ptc: 1 tool, 2 sections, \d+ tokens ===\n/)
    expect(first.stdout).toMatch(
      /\n\| native \|\s+8 \|\s+0 \|.*\n\| ptc\s+\|\s+1 \|\s+2 \|.*\n\| both\s+\|\s+9 \|\s+1 \|/,
    )
    expect((await sdk()).stdout).toBe(first.stdout)
  })

  it.skipIf(!hasSystemPart('bubblewrap', 'qilin-tools sdk (Python)'))(
    'prints the Python SDK and only the declarations on request',
    async () => {
      const python = await sdk('--lang', 'py', '--declarations')
      expect(python.code).toBe(0)
      expect(python.stdout).toContain('read_file')
      expect(python.stdout).not.toContain('declare const tools')
      const typescript = await sdk('--declarations')
      expect(typescript.stdout).toMatch(/^declare class ToolCallError/)
      expect(typescript.stdout).toContain('declare const tools: {')
    },
  )
})
