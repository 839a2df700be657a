import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { describe, expect, it } from 'vitest'
import { fixtureTools } from './__fixtures__/fixture-tools.js'
import { serveMcp } from './serve-mcp.js'

describe('serveMcp of one agent', () => {
  it('holds the agent for as long as it serves it, and lets go when it closes', async () => {
    const runtime = createToolRuntime()
    const [tool] = fixtureTools()
    const mine = runtime.agent('served')
    mine.register(tool!)
    const serving = await serveMcp(runtime, { agent: 'served', transport: { http: { port: 0 } }, mode: 'native' })
    mine.dispose()
    {
      using probe = runtime.agent('served')
      expect(probe.get(tool!.name)).toBe(tool)
    }
    await serving.close()
    expect(runtime.agent('served').get(tool!.name)).toBeUndefined()
  })

  it('lets go of the agent when serving it fails', async () => {
    const runtime = createToolRuntime()
    const [tool] = fixtureTools()
    const mine = runtime.agent('served')
    mine.register(tool!)
    await expect(serveMcp(runtime, { agent: 'served', transport: { http: { port: 0 } }, mode: 'ptc' })).rejects.toThrow(
      /no ptcRuntime/,
    )
    mine.dispose()
    expect(runtime.agent('served').get(tool!.name)).toBeUndefined()
  })
})
