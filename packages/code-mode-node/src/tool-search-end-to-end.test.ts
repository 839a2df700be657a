import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { ToolRuntimeConfig } from 'qilin-tools/internal/pipeline/runtime-config.js'
import { createMemorySessionLog } from 'qilin-tools/internal/session-log/memory-session-log.js'
import { realCorpus } from 'qilin-tools/internal/tool-search/__fixtures__/search-corpus.js'
import { afterAll, describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../../test/support/settled-result.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'

const ptc = createNodePtcRuntime({ poolSize: 1 })
afterAll(() => ptc.close())

const pinned = defineTool({
  name: 'pinned_clock',
  description: 'The time now.',
  parameters: {},
  deferLoading: false,
  execute: () => 'noon',
})

function searchingRuntime(sessionLog = createMemorySessionLog()) {
  const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime: ptc, sessionLog })
  for (const definition of [...realCorpus().definitions, pinned]) runtime.register(definition)
  return runtime
}

const run = (code: string) => ({ id: 'program', name: 'run_code', arguments: { code, description: 'search' } })

describe('tool search in TypeScript code mode (isolated-vm)', () => {
  it('declares the always-listed tools and the search bindings, and indexes the rest by prefix', () => {
    const sections = searchingRuntime().prompt().sections
    const sdk = sections.find((section) => section.id === 'tools:sdk')?.text ?? ''
    expect(sdk).toContain('pinned_clock(): Promise<unknown>')
    expect(sdk).toContain('search_tools(args: {')
    expect(sdk).toContain('describe_tool(args: { name: string }): Promise<{ name: string; declarations: string }>')
    expect(sdk).not.toContain('github__create_issue')
    const index = sections.find((section) => section.id === 'tools:index')?.text ?? ''
    expect(index).toContain('129 more tools')
    expect(index).toContain('github__ (26): ')
    expect(index).toContain('create_issue')
    expect(sections.map((section) => section.id)).toEqual(['tools:ptc-only', 'tools:sdk', 'tools:index'])
    expect(sdk.slice(sdk.indexOf('```ts'))).toMatchSnapshot()
  })

  it('finds a tool, prints its declarations and calls it in the same program', async () => {
    const log = createMemorySessionLog()
    const runtime = searchingRuntime(log)
    const code = `const found = await tools.search_tools({ query: "the sum of two numbers", limit: 2 })
console.log(found.declarations)
const described = await tools.describe_tool({ name: "memory__read_graph" })
console.log(described.declarations)
const names = found.matches.map((match) => match.name)
return { names, sum: await tools[names[0]]({ a: 17, b: 25 }) }`
    const result = expectSuccess(await runtime.execute(run(code)))
    const value = result.value as { names: string[]; sum: unknown }
    expect(value.names[0]).toMatch(/__get-sum$/)
    expect(value.sum).toEqual({ list: value.names[0]?.split('__')[0], tool: 'get-sum' })
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    expect(text).toContain('(args: EverythingFullcapsGetSumArgs): Promise<unknown>')
    expect(text).toContain('memory__read_graph(): Promise<unknown>')
    expect(text).not.toContain('declare class ToolCallError')
    // Each sub-call is an ordinary call through the pipeline, logged under the program's id.
    const subCalls = log.records.filter(
      (record) => record.type === 'tool.call.started' && record.parentId === 'program',
    )
    expect(subCalls.map((record) => record.name)).toEqual(['search_tools', 'describe_tool', value.names[0]])
  })

  it('fails describe_tool for a name no tool has, and a hostile query, cleanly inside the program', async () => {
    const runtime = searchingRuntime()
    const code = `const codes = []
for (const call of [
  () => tools.describe_tool({ name: "no_such_tool" }),
  () => tools.search_tools({ query: "x".repeat(1024 * 1024) }),
  () => tools.search_tools({ query: "find files ".repeat(60000) }),
  () => tools.search_tools({ query: "files", limit: 1e9 }),
]) {
  try { await call(); codes.push("ok") } catch (error) { codes.push(error.code ?? String(error.message).slice(0, 60)) }
}
return codes`
    const result = expectSuccess(await runtime.execute(run(code)))
    expect(result.value).toEqual([
      ToolErrorCode.TOOL_ERROR,
      // The sandbox refuses arguments over its limit before they leave the program.
      'tool arguments are larger than 1048576 bytes',
      ToolErrorCode.INVALID_ARGUMENTS,
      ToolErrorCode.INVALID_ARGUMENTS,
    ])
  })

  it('does not offer describe_tool or search_tools to the model directly under ptc', async () => {
    const runtime = searchingRuntime()
    const failed = expectFailure(
      await runtime.execute({ id: 'direct', name: 'search_tools', arguments: { query: 'files' } }),
    )
    expect(failed.error.code).toBe(ToolErrorCode.UNKNOWN_TOOL)
  })
})

describe('prompts after one more tool', () => {
  const corpus = realCorpus().definitions
  const extra = defineTool({
    name: 'github__star_repository',
    description: 'Star a GitHub repository.',
    parameters: { owner: { type: 'string', required: true }, repo: { type: 'string', required: true } },
    execute: () => 'starred',
  })

  it.each([
    ['native, search on', {}],
    ['native, search off', { toolSearch: false as const }],
    ['ptc, search on', { mode: 'ptc' as const }],
    ['ptc, search off', { mode: 'ptc' as const, toolSearch: false as const }],
    ['both, search on', { mode: 'both' as const }],
    ['both, search below its threshold', { mode: 'both' as const, toolSearch: { threshold: 500 } }],
  ] as [string, ToolRuntimeConfig][])(
    'are byte for byte what a fresh runtime shows for the same tools: %s',
    (_label, config) => {
      const full = { ...config, ...(config.mode === undefined ? {} : { ptcRuntime: ptc }) }
      const incremental = createToolRuntime(full)
      for (const definition of corpus) incremental.register(definition)
      incremental.prompt()
      const added = incremental.register(extra)
      const fresh = createToolRuntime(full)
      for (const definition of [extra, ...corpus]) fresh.register(definition)
      expect(JSON.stringify(incremental.prompt())).toBe(JSON.stringify(fresh.prompt()))
      added.dispose()
      const without = createToolRuntime(full)
      for (const definition of corpus) without.register(definition)
      expect(JSON.stringify(incremental.prompt())).toBe(JSON.stringify(without.prompt()))
    },
  )
})
