/**
 * The two peer code-mode runtimes built on isolated-vm, each behind one shape for bench/ptc-node.bench.ts:
 * `run(code)` executes a program whose tool `noop` answers 1 from a plain function (as ours does in the bench),
 * so a sub-call costs only the peer's own bridge. Plain JavaScript beside its own package.json: the repository's
 * typecheck never needs this install. Both are installed with isolated-vm overridden to the repository's build.
 */

/**
 * @typedef {object} PeerRuntime
 * @property {string} name
 * @property {(index: string) => string} call how a program calls `noop({ i })` in this runtime
 * @property {(code: string) => Promise<void>} run runs one program; rejects when the program failed
 */

/** @returns {Promise<PeerRuntime>} TanStack AI code mode through its own `execute_typescript` tool. */
async function tanstack() {
  const { createCodeModeTool } = await import('@tanstack/ai-code-mode')
  const { createNodeIsolateDriver } = await import('@tanstack/ai-isolate-node')
  const tool = createCodeModeTool({
    driver: createNodeIsolateDriver(),
    tools: [{ name: 'noop', description: 'Does nothing', execute: () => 1 }],
    timeout: 60_000,
  })
  return {
    name: '@tanstack/ai-code-mode',
    call: (index) => `external_noop({ i: ${index} })`,
    async run(code) {
      const result = await tool.execute({ typescriptCode: code })
      if (!result.success) throw new Error(`@tanstack/ai-code-mode: ${JSON.stringify(result.error)}`)
    },
  }
}

/** @returns {Promise<PeerRuntime>} UTCP code mode's `callToolChain`, its tool list and `callTool` answered locally. */
async function utcp() {
  const { CodeModeUtcpClient } = await import('@utcp/code-mode')
  const client = await CodeModeUtcpClient.create()
  const noop = {
    name: 'bench.noop',
    description: 'Does nothing',
    inputs: { type: 'object', properties: { i: { type: 'integer' } } },
    outputs: { type: 'integer' },
    tags: [],
  }
  client.getTools = async () => [noop]
  client.callTool = async () => 1
  return {
    name: '@utcp/code-mode',
    call: (index) => `bench.noop({ i: ${index} })`,
    async run(code) {
      const { logs } = await client.callToolChain(code, 60_000)
      const failed = logs.find((line) => line.startsWith('[ERROR]'))
      if (failed !== undefined) throw new Error(`@utcp/code-mode: ${failed}`)
    },
  }
}

/**
 * Each peer, or why it cannot run here.
 * @returns {Promise<({ ok: true, runtime: PeerRuntime } | { ok: false, name: string, reason: string })[]>}
 */
export async function loadPeers() {
  const loaded = []
  for (const [name, load] of [
    ['@tanstack/ai-code-mode', tanstack],
    ['@utcp/code-mode', utcp],
  ]) {
    try {
      loaded.push({ ok: true, runtime: await load() })
    } catch (error) {
      loaded.push({ ok: false, name, reason: error instanceof Error ? error.message : String(error) })
    }
  }
  return loaded
}
