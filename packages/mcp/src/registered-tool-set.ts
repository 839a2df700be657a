import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import type { JsonObject } from 'qilin-tools/internal/json-schema/json-value.js'
import type { McpSkippedTool, McpToolFilter, McpToolHost } from './mcp-connection-types.js'
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
  /** The listed tools the last listing could not register, in listing order, each with the reason. */
  skipped(): readonly McpSkippedTool[]
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

/** A skipped tool's name and reason quote the server's text, so each is cut to a length a log line can carry. */
const MAX_SKIPPED_NAME_LENGTH = 256
const MAX_SKIPPED_REASON_LENGTH = 1_000
const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text)

/** The tools one connection has registered, keyed by the server's tool names. */
export function createRegisteredToolSet(options: ToolSetOptions): RegisteredToolSet {
  const { host, serverName } = options
  const keep = toPredicate(options.filter)
  const registrations = new Map<string, Registration>()
  let order: readonly string[] = []
  let skipped: readonly McpSkippedTool[] = []
  const nameOf = (tool: Tool) => mcpToolName(serverName, tool.name, options.prefix)

  /** The server's tool as a definition, or why it cannot be one (its schemas are the server's, hostile or not). */
  const define = (tool: Tool, name: string) => {
    try {
      return mcpToolDefinition({
        serverName,
        name,
        tool,
        call: (args, context) => options.call(tool.name, args, context),
      })
    } catch (error) {
      return thrownMessage(error)
    }
  }

  return {
    names: () => order.map((toolName) => registrations.get(toolName)!.name),
    skipped: () => skipped,
    apply(listed) {
      const tools = listed.filter(keep)
      checkCollisions(serverName, tools, nameOf)
      const fingerprints = new Map([...registrations].map(([toolName, entry]) => [toolName, entry.fingerprint]))
      const diff = diffTools(fingerprints, tools)
      for (const toolName of [...diff.removed, ...diff.changed.map((tool) => tool.name)]) {
        registrations.get(toolName)?.disposer.dispose()
        registrations.delete(toolName)
      }
      // A tool whose schemas cannot be compiled is left out alone; not registered, it is tried again on the next
      // listing. A name the host already has is the host's configuration, and still fails the whole listing.
      const refused = new Map<string, string>()
      for (const tool of [...diff.changed, ...diff.added]) {
        const name = nameOf(tool)
        const definition = define(tool, name)
        if (typeof definition === 'string') refused.set(tool.name, definition)
        else
          registrations.set(tool.name, {
            name,
            fingerprint: toolFingerprint(tool),
            disposer: host.register(definition),
          })
      }
      const registered = tools.map((tool) => tool.name).filter((toolName) => registrations.has(toolName))
      const reordered = order.join('\n') !== registered.join('\n')
      order = registered
      skipped = Object.freeze(
        tools
          .filter((tool) => refused.has(tool.name))
          .map((tool) =>
            Object.freeze({
              name: clip(tool.name, MAX_SKIPPED_NAME_LENGTH),
              reason: clip(refused.get(tool.name)!, MAX_SKIPPED_REASON_LENGTH),
            }),
          ),
      )
      return reordered || diff.changed.length > 0
    },
    clear() {
      for (const entry of registrations.values()) entry.disposer.dispose()
      registrations.clear()
      order = []
      skipped = []
    },
  }
}
