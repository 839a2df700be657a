import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createNodePtcRuntime } from '@qilin-tools/code-mode-node/internal/create-node-ptc-runtime.js'
import type { SandboxEscalation } from '@qilin-tools/sandbox/internal/sandbox-escalation.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { Approver } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../../test/support/settled-result.js'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { bashTool } from './bash-tool.js'
import { openWorkspace } from './workspace.js'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'qilin-escalation-')))
const root = join(base, 'root')
const extra = join(base, 'extra')
let server: Server
let port = 0
beforeAll(async () => {
  for (const directory of [root, extra]) mkdirSync(directory)
  server = createServer((socket) => socket.end('pong\n'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(base, { recursive: true, force: true })
})

/** A real code-mode runtime with the real bash tool, both given the same escalation profile (as the CLI does). */
function setup(escalation: SandboxEscalation | undefined, approve: Approver = () => true) {
  const ptcRuntime = createNodePtcRuntime({ poolSize: 0, ...(escalation === undefined ? {} : { escalation }) })
  const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime, approve })
  runtime.register(bashTool(openWorkspace(root), escalation === undefined ? {} : { escalation }))
  return { runtime, close: () => ptcRuntime.close() }
}

const probe = () =>
  `const run = await tools.bash({ command: 'exec 3<>/dev/tcp/127.0.0.1/${port} && head -n 1 <&3 && echo wrote > ${extra}/note.txt && echo done' })
return run.stdout`

function runCode(permissions: 'use_default' | 'require_escalated' | undefined, id = 'run') {
  return {
    id,
    name: 'run_code',
    arguments: {
      code: probe(),
      description: 'reach the network and write outside the workspace',
      ...(permissions === undefined ? {} : { sandbox_permissions: permissions, justification: 'fetch and cache' }),
    },
  }
}

describe.skipIf(!hasSystemPart('bubblewrap', 'bash escalation through run_code'))('escalation through run_code', () => {
  it('gives an approved escalated run the configured profile, for that run only', async () => {
    const { runtime, close } = setup({ network: true, writablePaths: [extra] })
    try {
      const plain = await runtime.execute(runCode('use_default', 'plain'))
      expect(plain.ok).toBe(true)
      expect(expectSuccess(plain).value).toBe('')
      const escalated = await runtime.execute(runCode('require_escalated', 'wide'))
      expect(escalated.ok).toBe(true)
      expect(expectSuccess(escalated).value).toBe('pong\ndone\n')
      expect(readFileSync(join(extra, 'note.txt'), 'utf8')).toBe('wrote\n')
      rmSync(join(extra, 'note.txt'))
      const after = await runtime.execute(runCode('use_default', 'after'))
      expect(expectSuccess(after).value).toBe('')
    } finally {
      await close()
    }
  })

  it('runs nothing when the escalation is denied', async () => {
    const { runtime, close } = setup({ network: true }, () => false)
    try {
      const denied = await runtime.execute(runCode('require_escalated'))
      expect(expectFailure(denied).error.code).toBe('DENIED')
    } finally {
      await close()
    }
  })

  it('offers escalation, saying what it grants, only when a profile is configured', async () => {
    const offered = setup({ network: true, writablePaths: [extra] })
    const plain = setup(undefined)
    try {
      const parameters = (runtime: ReturnType<typeof setup>['runtime']) =>
        runtime.prompt().tools.find((tool) => tool.name === 'run_code')?.parameters.properties ?? {}
      expect(parameters(offered.runtime).sandbox_permissions).toMatchObject({
        description: `require_escalated asks the user, before the program starts, for network access and write access to ${extra}, for this run only.`,
      })
      expect(Object.keys(parameters(plain.runtime))).toEqual(['code', 'description', 'timeoutMs'])
      const refused = await plain.runtime.execute(runCode('require_escalated'))
      expect(expectFailure(refused).error.code).toBe('INVALID_ARGUMENTS')
    } finally {
      await offered.close()
      await plain.close()
    }
  })
})
