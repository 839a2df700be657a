// Baselines: the memory MCP server with the MCP SDK's own client, as a user without qilin-tools connects it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

/** Starts the server; `call` answers a tool call as the text the model should read. */
export async function connectMemory(memoryFile: string) {
  const client = new Client({ name: 'travel', version: '1.0.0' })
  const env = { ...getDefaultEnvironment(), MEMORY_FILE_PATH: memoryFile }
  await client.connect(
    new StdioClientTransport({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env }),
  )
  const { tools } = await client.listTools()
  const call = async (name: string, args: unknown, signal?: AbortSignal) => {
    try {
      const result = await client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, {
        ...(signal && { signal }),
      })
      const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('\n')
      return result.isError ? `Error: ${text}` : text
    } catch (error) {
      return `Error: ${error instanceof Error ? error.message : String(error)}`
    }
  }
  return { tools, call, close: () => client.close() }
}
