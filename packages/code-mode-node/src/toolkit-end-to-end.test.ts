import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bashTool } from '@qilin-tools/toolkit/internal/bash-tool.js'
import { openWorkspace } from '@qilin-tools/toolkit/internal/workspace.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterAll, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../test/support/settled-result.js'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'

const root = realpathSync(mkdtempSync(join(tmpdir(), 'qilin-ptc-')))
const ptc = createNodePtcRuntime({ poolSize: 1 })
afterAll(async () => {
  await ptc.close()
  rmSync(root, { recursive: true, force: true })
})

describe('TypeScript code mode with the workspace bash tool', () => {
  const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime: ptc })
  runtime.register(bashTool(openWorkspace(root)))

  it('shows the run_code example around the real bash schema, with its result type', () => {
    const sdk = runtime.prompt().sections.find((section) => section.id === 'tools:sdk')?.text ?? ''
    expect(sdk).toContain(`run_code({ code: "return await tools.bash({ command: 'pwd'`)
    expect(sdk).toContain('exitCode: number | null')
  })

  it.skipIf(!hasSystemPart('bubblewrap', 'TypeScript code mode with the confined bash'))(
    'runs the example program through the pipeline and the real tool',
    async () => {
      const code = `const run = await tools.bash({ command: 'pwd', description: 'Print the working directory' })
return run.stdout.trim()`
      const result = await runtime.execute({ id: 'e2e', name: 'run_code', arguments: { code, description: 'pwd' } })
      expect(result.ok).toBe(true)
      expect(expectSuccess(result).value).toBe(root)
      expect(result.metadata?.subCalls).toBe(1)
    },
  )
})
