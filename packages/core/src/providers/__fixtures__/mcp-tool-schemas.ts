import { readdirSync, readFileSync } from 'node:fs'
import type { JsonSchemaObject } from '../../json-schema/node.js'
import type { ToolSchema } from '../../registry/tool-schema.js'

/** The shared `tools/list` dumps, beside the repository as `../shared/mcp-toolsets/` (tests and benches only). */
const TOOLSETS = new URL('../../../../../../shared/mcp-toolsets/', import.meta.url)

interface McpToolList {
  readonly tools: readonly { name: string; description?: string; inputSchema: JsonSchemaObject }[]
}

/** Every `tools/list` dump in the shared MCP toolsets, as tool schemas, by file name. */
export function mcpToolSchemas(): ReadonlyMap<string, readonly ToolSchema[]> {
  const files = readdirSync(TOOLSETS).filter((file) => file.endsWith('.json') && !file.startsWith('_'))
  return new Map(
    files.sort().map((file) => {
      const list = JSON.parse(readFileSync(new URL(file, TOOLSETS), 'utf8')) as McpToolList
      const schemas = list.tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        parameters: tool.inputSchema,
      }))
      return [file, schemas] as const
    }),
  )
}
