import { describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import type { AnyToolDefinition } from '../definition/tool-definition.js'
import { ToolErrorCode } from '../errors/error-codes.js'
import { isToolRuntimeError } from '../errors/tool-runtime-error.js'
import { createMemorySessionLog } from '../session-log/memory-session-log.js'
import { realCorpus } from '../tool-search/__fixtures__/search-corpus.js'
import { createToolRuntime } from './create-tool-runtime.js'
import { ToolRuntimeConfigError } from './runtime-config.js'

const corpus = realCorpus()

function withCorpus(config: Parameters<typeof createToolRuntime>[0] = {}, extra: readonly AnyToolDefinition[] = []) {
  const runtime = createToolRuntime(config)
  for (const definition of [...corpus.definitions, ...extra]) runtime.register(definition)
  return runtime
}

const pinned = defineTool({
  name: 'pinned_clock',
  description: 'The time now.',
  parameters: {},
  deferLoading: false,
  execute: () => 'noon',
})

const search = (query: unknown, limit?: unknown) => ({
  id: 'search',
  name: 'search_tools',
  arguments: (limit === undefined ? { query } : { query, limit }) as never,
})

const matchNames = (value: unknown) => (value as { matches: { name: string }[] }).matches.map((match) => match.name)

describe('tool search in native mode', () => {
  it('lists every tool up to the threshold, and only search_tools above it', () => {
    const few = createToolRuntime()
    for (const definition of corpus.definitions.slice(0, 30)) few.register(definition)
    expect(few.prompt().tools).toHaveLength(30)
    few.register(corpus.definitions[30] as AnyToolDefinition)
    expect(few.prompt().tools.map((tool) => tool.name)).toEqual(['search_tools'])
    expect(few.schemas()).toHaveLength(31)
  })

  it('shows the model search_tools as this snapshot', () => {
    expect(withCorpus().prompt()).toMatchSnapshot()
  })

  it('keeps a deferLoading: false tool listed, before search_tools', () => {
    const runtime = withCorpus({}, [pinned])
    expect(runtime.prompt().tools.map((tool) => tool.name)).toEqual(['pinned_clock', 'search_tools'])
  })

  it('lists every tool with toolSearch: false, and a threshold moves the switch', () => {
    expect(withCorpus({ toolSearch: false }).prompt().tools).toHaveLength(corpus.definitions.length)
    expect(withCorpus({ toolSearch: { threshold: 500 } }).prompt().tools).toHaveLength(corpus.definitions.length)
    expect(withCorpus({ toolSearch: { threshold: 0 } }).prompt().tools).toHaveLength(1)
  })

  it('answers with names, summaries and full schemas, and appends what it found after the earlier tools', async () => {
    const runtime = withCorpus({}, [pinned])
    const before = JSON.stringify(runtime.prompt().tools)
    const result = expectSuccess(await runtime.execute(search('open a new bug report on the GitHub project', 2)))
    const found = matchNames(result.value)
    expect(found).toHaveLength(2)
    expect(found[0]).toBe('github__create_issue')
    const first = (result.value as { matches: { summary: string; parameters: unknown }[] }).matches[0]
    expect(first?.summary).toBe('Create a new issue in a GitHub repository')
    expect(first?.parameters).toEqual(runtime.get('github__create_issue')?.parameters)
    const after = runtime.prompt().tools
    expect(after.map((tool) => tool.name)).toEqual(['pinned_clock', 'search_tools', ...found])
    // Byte for byte, the prompt before the search is a prefix of the prompt after it.
    expect(JSON.stringify(after).startsWith(before.slice(0, -1))).toBe(true)
    expectSuccess(await runtime.execute(search('merge PR 15 into main', 1)))
    const later = runtime.prompt().tools
    expect(later.slice(0, after.length)).toEqual(after)
    expect(later.map((tool) => tool.name).at(-1)).toBe('github__merge_pull_request')
  })

  it('keeps what each agent found to that agent, and forgets it with the agent', async () => {
    const runtime = withCorpus()
    const alice = runtime.agent('alice')
    expectSuccess(await alice.execute(search('dump the entire knowledge graph', 1)))
    expect(alice.prompt().tools.map((tool) => tool.name)).toEqual(['search_tools', 'memory__read_graph'])
    expect(
      runtime
        .agent('bob')
        .prompt()
        .tools.map((tool) => tool.name),
    ).toEqual(['search_tools'])
    expect(runtime.prompt().tools.map((tool) => tool.name)).toEqual(['search_tools'])
    alice.dispose()
    expect(
      runtime
        .agent('alice')
        .prompt()
        .tools.map((tool) => tool.name),
    ).toEqual(['search_tools'])
  })

  it('tells onToolsChanged watchers when a search lists new tools, and only that scope', async () => {
    const runtime = withCorpus()
    const alice = runtime.agent('alice')
    const calls: string[] = []
    alice.onToolsChanged(() => calls.push('alice'))
    const bob = runtime.agent('bob').onToolsChanged(() => calls.push('bob'))
    expectSuccess(await alice.execute(search('dump the entire knowledge graph', 1)))
    await Promise.resolve()
    expect(calls).toEqual(['alice'])
    // Finding the same tool again lists nothing new.
    expectSuccess(await alice.execute(search('dump the entire knowledge graph', 1)))
    await Promise.resolve()
    expect(calls).toEqual(['alice'])
    bob.dispose()
  })

  it('calls a deferred tool that was never searched for: it is visible, only not listed', async () => {
    const runtime = withCorpus()
    const result = expectSuccess(await runtime.execute({ id: 'direct', name: 'memory__read_graph', arguments: {} }))
    expect(result.value).toEqual({ list: 'memory', tool: 'read_graph' })
    expect(runtime.prompt().tools.map((tool) => tool.name)).toEqual(['search_tools'])
  })

  it('never searches past the scope: a masked tool is neither found nor callable', async () => {
    const runtime = withCorpus()
    const agent = runtime.agent('masked')
    agent.restrict({ deny: ['github__create_issue'] })
    const found = matchNames(expectSuccess(await agent.execute(search('open a new bug report on GitHub', 20))).value)
    expect(found).not.toContain('github__create_issue')
    expect(found.length).toBeGreaterThan(0)
  })

  it('runs search_tools through the pipeline: guards, listeners and the session log see it', async () => {
    const log = createMemorySessionLog()
    const runtime = withCorpus({ sessionLog: log })
    const seen: string[] = []
    runtime.on('tools/pre-execute', (event) => {
      seen.push(event.call.name)
      return undefined
    })
    const stop = runtime.guard((info) => (info.name === 'search_tools' ? 'no searching today' : undefined))
    const denied = expectFailure(await runtime.execute(search('merge a pull request')))
    expect(denied.error.code).toBe(ToolErrorCode.DENIED)
    stop.dispose()
    expectSuccess(await runtime.execute(search('merge a pull request')))
    expect(seen).toEqual(['search_tools', 'search_tools'])
    // Each call is logged as it starts and as it settles.
    expect(log.records.filter((record) => record.name === 'search_tools')).toHaveLength(4)
  })

  it.each([
    ['a 1 MB query', () => 'x'.repeat(1024 * 1024), undefined],
    ['a 100,000-word query', () => 'find files '.repeat(50_000), undefined],
    ['an empty query', () => '', undefined],
    ['a number for a query', () => 42, undefined],
    ['limit 1e9', () => 'files', 1e9],
    ['limit -1', () => 'files', -1],
    ['limit 0.5', () => 'files', 0.5],
    ['limit NaN', () => 'files', Number.NaN],
  ])('refuses %s with INVALID_ARGUMENTS, quickly', async (_label, query, limit) => {
    const runtime = withCorpus()
    const started = performance.now()
    const failed = expectFailure(await runtime.execute(search(query(), limit)))
    expect(failed.error.code).toBe(ToolErrorCode.INVALID_ARGUMENTS)
    expect(performance.now() - started).toBeLessThan(1000)
    expectSuccess(await runtime.execute(search('list the folder')))
  })

  it('takes regular-expression metacharacters as plain text', async () => {
    const runtime = withCorpus()
    for (const query of ['(a+)+$', '.*', '[', '\\', '(?<x>', '^$|*+?{}()[]']) {
      const result = expectSuccess(await runtime.execute(search(query)))
      expect(Array.isArray((result.value as { matches: unknown[] }).matches)).toBe(true)
    }
    const backtracking = `${'a'.repeat(990)}!`
    expectSuccess(await runtime.execute(search(backtracking)))
  })

  it('reserves search_tools and describe_tool unless toolSearch is false', () => {
    const named = (name: string) => defineTool({ name, description: 'Mine.', parameters: {}, execute: () => 1 })
    for (const name of ['search_tools', 'describe_tool']) {
      let thrown: unknown
      try {
        createToolRuntime().register(named(name))
      } catch (error) {
        thrown = error
      }
      expect(isToolRuntimeError(thrown)).toBe(true)
      expect(() => createToolRuntime({ toolSearch: false }).register(named(name))).not.toThrow()
    }
  })

  it.each([
    [{ toolSearch: true }],
    [{ toolSearch: { threshold: -1 } }],
    [{ toolSearch: { threshold: 1.5 } }],
    [{ toolSearch: { ranker: 'bm25' } }],
    [{ toolSearch: { rankerTimeoutMs: 0 } }],
    [{ toolSearch: { treshold: 3 } }],
  ])('rejects %j naming toolSearch', (config) => {
    let thrown: unknown
    try {
      createToolRuntime(config as never)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ToolRuntimeConfigError)
    expect((thrown as ToolRuntimeConfigError).field).toBe('toolSearch')
  })
})

describe('a host ranker', () => {
  it('ranks in place of BM25; names it made up, repeats and extras are dropped', async () => {
    const runtime = withCorpus({
      toolSearch: {
        ranker: async ({ limit, tools }) => {
          expect(tools).toHaveLength(corpus.definitions.length)
          return [
            'nope',
            'memory__read_graph',
            'memory__read_graph',
            'github__get_issue',
            'filesystem__read_file',
          ].slice(0, limit + 2)
        },
      },
    })
    const found = matchNames(expectSuccess(await runtime.execute(search('anything', 2))).value)
    expect(found).toEqual(['memory__read_graph', 'github__get_issue'])
  })

  it.each([
    ['throws', () => Promise.reject(new Error('embeddings are down')), 'embeddings are down'],
    ['returns no array', () => Promise.resolve('memory__read_graph' as never), 'array of names'],
    ['never settles', () => new Promise<never>(() => {}), 'more than 50 ms'],
  ])('that %s fails the search with TOOL_ERROR, within its deadline', async (_label, ranker, message) => {
    const runtime = withCorpus({ toolSearch: { ranker, rankerTimeoutMs: 50 } })
    const started = performance.now()
    const failed = expectFailure(await runtime.execute(search('anything')))
    expect(failed.error.code).toBe(ToolErrorCode.TOOL_ERROR)
    expect(failed.error.message).toContain(message)
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('sees the call cancelled through its signal', async () => {
    let aborted = false
    const runtime = withCorpus({
      toolSearch: {
        ranker: ({ signal }) =>
          new Promise<never>(() => {
            signal.addEventListener('abort', () => {
              aborted = true
            })
          }),
      },
    })
    const controller = new AbortController()
    const pending = runtime.execute(search('anything'), { signal: controller.signal })
    setTimeout(() => controller.abort(), 10)
    expect(expectFailure(await pending).error.code).toBe(ToolErrorCode.ABORTED)
    expect(aborted).toBe(true)
  })
})
