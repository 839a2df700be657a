import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AnyToolDefinition } from '../definition/tool-definition.js'
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
    const registered = new Set<string>()
    const registrar = {
      register(tool: AnyToolDefinition) {
        registered.add(tool.name)
        return { dispose: () => registered.delete(tool.name) }
      },
    }
    const registration = workspace.toolkit.register(registrar)
    expect(registered.size).toBe(8)
    registration.dispose()
    expect(registered.size).toBe(0)
  })

  it('can leave bash out or let it run without asking', () => {
    const without = createWorkspaceToolkit({ root: workspace.root, withoutBash: true })
    expect(without.tools.map((tool) => tool.name)).not.toContain('bash')
    expect(without.approvals).toEqual({})
    expect(createWorkspaceToolkit({ root: workspace.root, bash: { approval: 'allow' } }).approvals).toEqual({
      bash: 'allow',
    })
  })
})
