/**
 * A small MCP server for tests, run with `node --import tsx dynamic-server.ts`. It pages `tools/list` three
 * tools at a time, and its `control` tool adds, removes or redescribes tools and then sends
 * `notifications/tools/list_changed`. `hang` never answers; `count` answers with how often it ran.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js'

const PAGE_SIZE = 3
const objectSchema = (properties: Record<string, object> = {}) => ({ type: 'object' as const, properties })

const tools = new Map<string, Tool>()
const put = (tool: Tool) => tools.set(tool.name, tool)
put({
  name: 'control',
  description: 'Changes the tool list.',
  inputSchema: objectSchema({
    add: { type: 'array', items: { type: 'string' } },
    remove: { type: 'array', items: { type: 'string' } },
    redescribe: { type: 'string' },
  }),
})
put({ name: 'hang', description: 'Never answers.', inputSchema: objectSchema() })
put({
  name: 'count',
  description: 'Counts its calls.',
  inputSchema: objectSchema(),
  annotations: { readOnlyHint: true },
})
for (const name of ['alpha', 'beta']) put({ name, description: `Echoes (${name}).`, inputSchema: objectSchema() })

const server = new Server({ name: 'dynamic', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } })
let calls = 0

server.setRequestHandler(ListToolsRequestSchema, (request) => {
  const all = [...tools.values()]
  const start = Number(request.params?.cursor ?? 0)
  const end = start + PAGE_SIZE
  return { tools: all.slice(start, end), ...(end < all.length ? { nextCursor: String(end) } : {}) }
})

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = (request.params.arguments ?? {}) as { add?: string[]; remove?: string[]; redescribe?: string }
  calls++
  if (request.params.name === 'hang') return new Promise(() => {})
  if (request.params.name === 'count') return { content: [{ type: 'text', text: String(calls) }] }
  if (request.params.name === 'control') {
    for (const name of args.add ?? []) put({ name, description: `Echoes (${name}).`, inputSchema: objectSchema() })
    for (const name of args.remove ?? []) tools.delete(name)
    const target = args.redescribe === undefined ? undefined : tools.get(args.redescribe)
    if (target !== undefined) {
      put({ ...target, inputSchema: objectSchema({ text: { type: 'string' } }), description: 'Redescribed.' })
    }
    await server.sendToolListChanged()
    return { content: [{ type: 'text', text: 'ok' }] }
  }
  return { content: [{ type: 'text', text: `${request.params.name} ${JSON.stringify(args)}` }] }
})

await server.connect(new StdioServerTransport())
