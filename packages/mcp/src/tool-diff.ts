import type { Tool } from '@modelcontextprotocol/sdk/types.js'

/** What the model and the scheduler see of an MCP tool; a change in any of it means re-registering. */
export function toolFingerprint(tool: Tool): string {
  return JSON.stringify([
    tool.title ?? null,
    tool.description ?? null,
    tool.inputSchema,
    tool.outputSchema ?? null,
    tool.annotations ?? null,
  ])
}

export interface ToolDiff {
  readonly added: readonly Tool[]
  readonly removed: readonly string[]
  readonly changed: readonly Tool[]
}

/** Compares the fingerprints of the registered tools (by server tool name) with a fresh listing. */
export function diffTools(registered: ReadonlyMap<string, string>, listed: readonly Tool[]): ToolDiff {
  const listedNames = new Set(listed.map((tool) => tool.name))
  const added: Tool[] = []
  const changed: Tool[] = []
  for (const tool of listed) {
    const fingerprint = registered.get(tool.name)
    if (fingerprint === undefined) added.push(tool)
    else if (fingerprint !== toolFingerprint(tool)) changed.push(tool)
  }
  const removed = [...registered.keys()].filter((name) => !listedNames.has(name))
  return { added, removed, changed }
}
