import { realpathSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace({ 'hello.txt': 'hi\n' })
})
afterEach(() => workspace.dispose())

describe('bash', () => {
  it('runs in the workspace root and reports exit code and output', async () => {
    expect(await workspace.run('bash', { command: 'pwd; cat hello.txt; echo oops >&2; exit 3' })).toEqual({
      exitCode: 3,
      stdout: `${realpathSync(workspace.root)}\nhi\n`,
      stderr: 'oops\n',
      timedOut: false,
      truncated: false,
    })
  })

  it('kills a command at its deadline', async () => {
    expect(await workspace.run('bash', { command: 'echo started; sleep 5', timeoutMs: 200 })).toMatchObject({
      exitCode: null,
      stdout: 'started\n',
      timedOut: true,
    })
  })

  it('is exclusive and asks for approval by default', () => {
    const tool = workspace.toolkit.tools.find((candidate) => candidate.name === 'bash')
    expect(tool?.executionMode).toBe('exclusive')
    expect(workspace.toolkit.approvals).toEqual({ bash: 'ask' })
  })
})
