import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectFailure } from '../../../test/support/settled-result.js'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'
import { createWorkspaceToolkit } from './workspace-toolkit.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace({})
})
afterEach(() => workspace.dispose())

describe('createWorkspaceToolkit', () => {
  it('shows the model a stable set of schemas', () => {
    const seen = workspace.toolkit.tools.map(({ name, description, parameters }) => ({ name, description, parameters }))
    expect(seen).toMatchSnapshot()
  })

  it('declares every output, so programs get structured values', () => {
    const outputs = Object.fromEntries(workspace.toolkit.tools.map((tool) => [tool.name, tool.output?.schema]))
    expect(outputs).toMatchSnapshot()
  })

  it('runs readers in parallel and writers alone', () => {
    const modes = Object.fromEntries(workspace.toolkit.tools.map((tool) => [tool.name, tool.executionMode]))
    expect(modes).toEqual({
      read_file: 'parallel',
      write_file: 'exclusive',
      edit_file: 'exclusive',
      list_directory: 'parallel',
      glob: 'parallel',
      grep: 'parallel',
      file_info: 'parallel',
      bash: 'exclusive',
    })
  })

  it('registers every tool and removes them all with one disposer', () => {
    const runtime = createToolRuntime()
    const registration = workspace.toolkit.register(runtime)
    expect(runtime.schemas().map((schema) => schema.name)).toEqual([
      'bash',
      'edit_file',
      'file_info',
      'glob',
      'grep',
      'list_directory',
      'read_file',
      'write_file',
    ])
    registration.dispose()
    expect(runtime.schemas()).toEqual([])
  })

  it('asks before bash through the runtime approver, and denies without one', async () => {
    const call = { id: 'c1', name: 'bash', arguments: { command: 'echo hi' } }
    // Asking is the subject here, not confinement (bash-tool.test.ts has that): run bash on the host.
    const toolkit = createWorkspaceToolkit({ root: workspace.root, bash: { sandbox: 'none' } })
    const unattended = createToolRuntime()
    toolkit.register(unattended)
    expect(await unattended.execute(call)).toMatchObject({ ok: false, error: { code: 'DENIED' } })
    const asked: string[] = []
    const attended = createToolRuntime({
      approve: (request) => {
        asked.push(...request.reasons)
        return true
      },
    })
    toolkit.register(attended)
    expect(await attended.execute(call)).toMatchObject({ ok: true, value: { exitCode: 0, stdout: 'hi\n' } })
    expect(asked).toEqual(['the workspace toolkit asks before running bash'])
    expect(await attended.execute({ id: 'c2', name: 'list_directory', arguments: {} })).toMatchObject({ ok: true })
    expect(asked).toHaveLength(1)
  })

  it('can leave bash out or let it run without asking', () => {
    const without = createWorkspaceToolkit({ root: workspace.root, withoutBash: true })
    expect(without.tools.map((tool) => tool.name)).not.toContain('bash')
    expect(without.approvals).toEqual({})
    expect(createWorkspaceToolkit({ root: workspace.root, bash: { approval: 'allow' } }).approvals).toEqual({
      bash: 'allow',
    })
  })

  it('hands each file tool its own size limit', async () => {
    const toolkit = createWorkspaceToolkit({
      root: workspace.root,
      withoutBash: true,
      readFile: { maxBytes: 4 },
      writeFile: { maxBytes: 4 },
    })
    writeFileSync(join(workspace.root, 'a.txt'), 'more than four bytes')
    const runtime = createToolRuntime()
    toolkit.register(runtime)
    const read = await runtime.execute({ id: 'r', name: 'read_file', arguments: { path: 'a.txt' } })
    const written = await runtime.execute({
      id: 'w',
      name: 'write_file',
      arguments: { path: 'b.txt', content: 'twelve bytes' },
    })
    expect([expectFailure(read).error.message, expectFailure(written).error.message]).toEqual([
      expect.stringMatching(/over the 4 byte limit/),
      expect.stringMatching(/over write_file's 4 byte limit/),
    ])
  })
})
