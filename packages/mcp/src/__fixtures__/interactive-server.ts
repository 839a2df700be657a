// An MCP server (the official SDK, over stdio) whose tools talk back to the client during their call: they ask for
// sampling and elicitation, report progress and log, some of them as floods.

import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import {
  CallToolRequestSchema,
  type CallToolResult,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'

const count = { type: 'object' as const, properties: { count: { type: 'integer' } } }
const parallel = { readOnlyHint: true }
const server = new Server({ name: 'interactive', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } })
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: 'sample', description: 'Asks for one completion.', inputSchema: { type: 'object' } },
    {
      name: 'ask',
      description: 'Asks the user a form with defaults.',
      inputSchema: { type: 'object' },
      annotations: parallel,
    },
    { name: 'flood_sampling', description: 'Asks for many completions at once.', inputSchema: count },
    { name: 'flood_progress', description: 'Reports progress many times.', inputSchema: count },
    { name: 'log_twice', description: 'Logs two lines, then answers.', inputSchema: { type: 'object' } },
  ],
}))

const text = (line: string): CallToolResult => ({ content: [{ type: 'text', text: line }] })
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
  const n = Number(request.params.arguments?.count ?? 1)
  const sample = () =>
    extra.sendRequest(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is six times seven?' } }],
          maxTokens: 10,
        },
      },
      CreateMessageResultSchema,
    )
  switch (request.params.name) {
    case 'sample':
      try {
        const answer = await sample()
        return text(`sampled: ${answer.content.type === 'text' ? answer.content.text : answer.content.type}`)
      } catch (error) {
        return text(`sampling failed: ${messageOf(error)}`)
      }
    case 'ask':
      try {
        const answer = await extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              message: 'Who are you?',
              requestedSchema: {
                type: 'object',
                properties: { name: { type: 'string' }, color: { type: 'string', default: 'teal' } },
              },
            },
          },
          ElicitResultSchema,
        )
        return text(`answer: ${answer.action} ${JSON.stringify(answer.content ?? {})}`)
      } catch (error) {
        return text(`elicitation failed: ${messageOf(error)}`)
      }
    case 'flood_sampling': {
      const settled = await Promise.allSettled(Array.from({ length: n }, sample))
      const refused = settled.filter((outcome) => outcome.status === 'rejected')
      const first = refused[0]
      return text(
        JSON.stringify({
          answered: settled.length - refused.length,
          refused: refused.length,
          reason: first?.status === 'rejected' ? messageOf(first.reason) : undefined,
        }),
      )
    }
    case 'flood_progress': {
      const progressToken = request.params._meta?.progressToken
      if (progressToken !== undefined) {
        for (let step = 1; step <= n; step++) {
          void extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: n },
          })
        }
      }
      return text(`reported ${n}`)
    }
    case 'log_twice':
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'first line' } })
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'debug', data: 'second line' } })
      return text('logged')
    default:
      return { content: [{ type: 'text', text: `unknown tool ${request.params.name}` }], isError: true }
  }
})
await server.connect(new StdioServerTransport())
