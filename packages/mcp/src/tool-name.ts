import { createHash } from 'node:crypto'

/** The longest tool name the providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64

const HASH_LENGTH = 8
const invalidCharacters = /[^a-zA-Z0-9_-]/g

/**
 * How an MCP tool's registered name is built. `'server'` (default) gives `<server>__<tool>`, a string
 * gives `<prefix>__<tool>`, `false` keeps the server's own tool name.
 */
export type McpNamePrefix = 'server' | string | false

/** Replaces every character outside `[a-zA-Z0-9_-]` with `_`. */
export function sanitizeToolName(name: string): string {
  return name.replace(invalidCharacters, '_')
}

/**
 * The registered name of an MCP tool: prefixed, sanitised, and kept within 64 characters by cutting it and
 * appending a hash of the full unsanitised name, so the same server and tool always give the same name.
 */
export function mcpToolName(serverName: string, toolName: string, prefix: McpNamePrefix = 'server'): string {
  const head = prefix === false ? '' : `${prefix === 'server' ? serverName : prefix}__`
  const full = `${head}${toolName}`
  const sanitized = sanitizeToolName(full)
  if (sanitized.length === 0) throw new Error(`MCP tool name "${toolName}" is empty`)
  if (sanitized.length <= MAX_TOOL_NAME_LENGTH) return sanitized
  const hash = createHash('sha256').update(full).digest('hex').slice(0, HASH_LENGTH)
  return `${sanitized.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`
}
