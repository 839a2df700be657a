/**
 * Serves a small runtime over stdio for tests: `node --import tsx serve-fixture.ts <native|ptc|both>`.
 * `ask_me` asks for approval, so the elicitation path can be driven from the client.
 */

import { createNodePtcRuntime } from '@qilin-tools/code-mode-node'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { PresentationMode } from 'qilin-tools/internal/registry/tool-schema.js'
import { elicitationApprover } from '../elicitation-approver.js'
import { serveMcp } from '../serve-mcp.js'
import { fixtureTools } from './fixture-tools.js'

const mode = (process.argv[2] ?? 'native') as PresentationMode
const ptcRuntime = createNodePtcRuntime()
const runtime = createToolRuntime({ ptcRuntime, approve: elicitationApprover(() => false) })
for (const tool of fixtureTools()) runtime.register(tool)
runtime.on('tools/pre-execute', (event) =>
  event.call.name === 'ask_me' ? { action: 'ask', reason: 'it asks' } : undefined,
)
await serveMcp(runtime, { transport: 'stdio', mode })
