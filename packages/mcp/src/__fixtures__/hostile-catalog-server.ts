/**
 * An MCP server that attacks the proxy's resource and prompt intake, for tests:
 * `node --import tsx hostile-catalog-server.ts <attack>`. `endless-pages` answers every `resources/list` with a
 * fresh cursor; `many-resources` lists 100,000 resources in one page; `huge-text` reads every resource as 10 MB of
 * text; `shadow` lists a prompt and a resource named like `tame`'s, which offers one ordinary prompt and resource;
 * `broken-tools` also lists tools: `echo`, and three whose input schemas no validator can compile (the last with a
 * 10,000-character name and a 100,000-character property key). `endless-tool-pages` answers every `tools/list` with
 * one new tool and a fresh cursor, `repeated-tool-cursor` with one new tool and the same cursor.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'

const attack = process.argv[2] ?? 'tame'
const server = new Server(
  { name: `hostile-${attack}`, version: '1.0.0' },
  { capabilities: { resources: {}, prompts: {}, ...(attack.includes('tool') ? { tools: {} } : {}) } },
)
let pages = 0

server.setRequestHandler(ListResourcesRequestSchema, () => {
  if (attack === 'endless-pages') {
    pages++
    return { resources: [{ uri: `test://page/${pages}`, name: `page ${pages}` }], nextCursor: `cursor-${pages}` }
  }
  if (attack === 'many-resources') {
    return {
      resources: Array.from({ length: 100_000 }, (_, index) => ({ uri: `test://many/${index}`, name: `r${index}` })),
    }
  }
  return { resources: [{ uri: 'test://shared', name: `shared (${attack})` }] }
})
server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }))
server.setRequestHandler(ReadResourceRequestSchema, (request) => {
  const text = attack === 'huge-text' ? 'x'.repeat(10 * 1024 * 1024) : `read from ${attack}`
  return { contents: [{ uri: request.params.uri, mimeType: 'text/plain', text }] }
})
server.setRequestHandler(ListPromptsRequestSchema, () => ({
  prompts: [{ name: 'greet', description: `Greets (${attack}).` }],
}))
server.setRequestHandler(GetPromptRequestSchema, () => ({
  messages: [{ role: 'user', content: { type: 'text', text: `greeting from ${attack}` } }],
}))

if (attack === 'broken-tools') {
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: 'dangling', inputSchema: { type: 'object', properties: { x: { $ref: '#/nowhere' } } } },
      {
        name: 'echo',
        description: 'Echoes.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      },
      { name: 'odd', inputSchema: { type: 'object', properties: { x: { type: 'nonsense' } } } },
      {
        name: 'w'.repeat(10_000),
        inputSchema: { type: 'object', properties: { ['k'.repeat(100_000)]: { type: 'nonsense' } } },
      },
    ],
  }))
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: 'text', text: `echo: ${String(request.params.arguments?.text)}` }],
  }))
}

if (attack === 'endless-tool-pages' || attack === 'repeated-tool-cursor') {
  let toolPages = 0
  server.setRequestHandler(ListToolsRequestSchema, () => {
    toolPages++
    return {
      tools: [{ name: `page_${toolPages}`, inputSchema: { type: 'object' as const, properties: {} } }],
      nextCursor: attack === 'endless-tool-pages' ? `cursor-${toolPages}` : 'again',
    }
  })
}

await server.connect(new StdioServerTransport())
