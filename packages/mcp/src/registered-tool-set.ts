import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { JsonObject } from 'qilin-tools/internal/json-schema/json-value.js'
import type { McpToolFilter, McpToolHost } from './mcp-connection-types.js'
import { type McpCallContext, mcpToolDefinition } from './mcp-tool-definition.js'
import { diffTools, toolFingerprint } from './tool-diff.js'
import { type McpNamePrefix, mcpToolName } from './tool-name.js'

interface Registration {
  readonly name: string
  readonly fingerprint: string
  readonly disposer: { dispose(): void }
}

export interface RegisteredToolSet {
  /** Registered names in listing order. */
  names(): readonly string[]
  /**
   * Brings the registrations in line with a complete listing: adds, removes and re-registers changed tools.
   * Returns whether anything changed.
   */
  apply(listed: readonly Tool[]): boolean
  clear(): void
}

export interface ToolSetOptions {
  readonly host: McpToolHost
  readonly serverName: string
  readonly prefix: McpNamePrefix | undefined
  readonly filter: McpToolFilter | undefined
  call(toolName: string, args: JsonObject, context: McpCallContext): Promise<CallToolResult>
}

function toPredicate(filter: McpToolFilter | undefined): (tool: Tool) => boolean {
  if (filter === undefined) return () => true
  if (typeof filter === 'function') return filter
  if ('allow' in filter) {
    const allowed = new Set(filter.allow)
    return (tool) => allowed.has(tool.name)
  }
  const denied = new Set(filter.deny)
  return (tool) => !denied.has(tool.name)
}

/** Registered names must be unique: two server tools that map to one name are an error, never renamed. */
function checkCollisions(serverName: string, tools: readonly Tool[], nameOf: (tool: Tool) => string): void {
  const seen = new Map<string, string>()
  for (const tool of tools) {
    const name = nameOf(tool)
    const earlier = seen.get(name)
    if (earlier !== undefined) {
      throw new Error(
        `MCP server "${serverName}": tools "${earlier}" and "${tool.name}" both map to the name "${name}"`,
      )
    }
    seen.set(name, tool.name)
  }
}

/** The tools one connection has registered, keyed by the server's tool names. */
export function createRegisteredToolSet(options: ToolSetOptions): RegisteredToolSet {
  const { host, serverName } = options
  const keep = toPredicate(options.filter)
  const registrations = new Map<string, Registration>()
  let order: readonly string[] = []
  const nameOf = (tool: Tool) => mcpToolName(serverName, tool.name, options.prefix)

  const register = (tool: Tool): Registration => {
    const name = nameOf(tool)
    const definition = mcpToolDefinition({
      serverName,
      name,
      tool,
      call: (args, context) => options.call(tool.name, args, context),
    })
    return { name, fingerprint: toolFingerprint(tool), disposer: host.register(definition) }
  }

  return {
    names: () => order.map((toolName) => registrations.get(toolName)?.name ?? toolName),
    apply(listed) {
      const tools = listed.filter(keep)
      checkCollisions(serverName, tools, nameOf)
      const fingerprints = new Map([...registrations].map(([toolName, entry]) => [toolName, entry.fingerprint]))
      const diff = diffTools(fingerprints, tools)
      for (const toolName of [...diff.removed, ...diff.changed.map((tool) => tool.name)]) {
        registrations.get(toolName)?.disposer.dispose()
        registrations.delete(toolName)
      }
      for (const tool of [...diff.changed, ...diff.added]) registrations.set(tool.name, register(tool))
      const reordered = order.join('\n') !== tools.map((tool) => tool.name).join('\n')
      order = tools.map((tool) => tool.name)
      return reordered || diff.changed.length > 0
    },
    clear() {
      for (const entry of registrations.values()) entry.disposer.dispose()
      registrations.clear()
      order = []
    },
  }
}
