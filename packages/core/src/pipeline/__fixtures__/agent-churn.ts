/**
 * A host that opens 10,000 agents, fills each (a tool, a mask, a presentation, listeners, a guard, a watcher), then
 * either disposes every view (`released`) or keeps them (`held`), and prints the heap growth after a full GC:
 * `node --expose-gc --import tsx agent-churn.ts released|held`.
 */
import { defineTool } from '../../definition/define-tool.js'
import { createToolRuntime } from '../create-tool-runtime.js'
import type { AgentRuntime } from '../tool-runtime.js'

const scenario = process.argv[2]
const gc = globalThis.gc as () => void
const runtime = createToolRuntime()
const kept: AgentRuntime[] = []

function churn(from: number, count: number): void {
  for (let index = from; index < from + count; index++) {
    const agent = runtime.agent(`agent-${index}`)
    agent.register(
      defineTool({ name: `tool_${index}`, description: 'A tool of one agent.', parameters: {}, execute: () => index }),
    )
    agent.restrict({ deny: ['elsewhere'] })
    agent.presentAs('native')
    agent.on('tools/result', () => {})
    agent.guard(() => undefined)
    agent.onToolsChanged(() => {})
    if (scenario === 'held') kept.push(agent)
    else agent.dispose()
  }
}

churn(0, 100)
gc()
const before = process.memoryUsage().heapUsed
churn(100, 10_000)
await new Promise((resolve) => setTimeout(resolve, 10))
gc()
const after = process.memoryUsage().heapUsed
process.stdout.write(JSON.stringify({ growth: after - before, kept: kept.length }))
