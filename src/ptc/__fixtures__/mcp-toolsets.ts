import { readdirSync, readFileSync } from 'node:fs'
import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import type { PtcToolView } from '../ptc-port.js'

/** The shared `tools/list` dumps, beside the repository as `../shared/mcp-toolsets/` (tests and benches only). */
const directory = new URL('../../../../shared/mcp-toolsets/', import.meta.url)

export interface McpTool {
  readonly name: string
  readonly description?: string
  readonly inputSchema: JsonSchemaObject
  readonly outputSchema?: JsonSchemaNode
}

export function mcpToolsetNames(): string[] {
  return readdirSync(directory)
    .filter((file) => file.endsWith('.json') && !file.startsWith('_'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort()
}

export function loadMcpTools(name: string): McpTool[] {
  return (JSON.parse(readFileSync(new URL(`${name}.json`, directory), 'utf8')) as { tools: McpTool[] }).tools
}

export function loadMcpToolset(name: string): PtcToolView[] {
  return loadMcpTools(name).map((tool) => ({
    name: tool.name,
    description: tool.description ?? '',
    parameters: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { output: tool.outputSchema }),
  }))
}
