// An upstream MCP server written with the official SDK, over stdio: the tools of the conformance suite's server
// scenarios that need a server to ask its client something during a call (sampling, elicitation), report progress,
// or log, plus the JSON Schema 2020-12 tool. `fixture-server.ts` proxies it through `connectMcpServer` and
// `serveMcp`, so those scenarios test the proxy: what the upstream sends must reach the suite's client and back.

import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import {
  CallToolRequestSchema,
  type CallToolResult,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'

const noArguments = { type: 'object' as const, properties: {} }

const tools: Tool[] = [
  {
    name: 'test_sampling',
    description: 'Asks the client for a completion of the prompt.',
    inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
  },
  {
    name: 'test_elicitation',
    description: 'Asks the user for a name and an email address.',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description: 'Asks with a default for every field.',
    inputSchema: noArguments,
  },
  { name: 'test_elicitation_sep1330_enums', description: 'Asks with every kind of enum.', inputSchema: noArguments },
  { name: 'test_tool_with_progress', description: 'Reports progress three times.', inputSchema: noArguments },
  { name: 'test_tool_with_logging', description: 'Logs three messages while it runs.', inputSchema: noArguments },
  { name: 'test_reconnection', description: 'Answers after a pause long enough to poll.', inputSchema: noArguments },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
  },
]

const sep1034Schema = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, description: 'User name', default: 'John Doe' },
    age: { type: 'integer' as const, description: 'User age', default: 30 },
    score: { type: 'number' as const, description: 'User score', default: 95.5 },
    status: {
      type: 'string' as const,
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean' as const, description: 'Verification status', default: true },
  },
}

const sep1330Schema = {
  type: 'object' as const,
  properties: {
    untitledSingle: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string' as const,
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string' as const,
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array' as const,
      items: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array' as const,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const text = (line: string): CallToolResult => ({ content: [{ type: 'text', text: line }] })

const server = new Server(
  { name: 'conformance-upstream', version: '1.0.0' },
  { capabilities: { tools: {}, logging: {} } },
)
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }))
server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
  const args = request.params.arguments ?? {}
  const elicit = async (message: string, requestedSchema: object) => {
    const answer = await extra.sendRequest(
      { method: 'elicitation/create', params: { message, requestedSchema } as never },
      ElicitResultSchema,
    )
    return `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`
  }
  switch (request.params.name) {
    case 'test_sampling': {
      const answer = await extra.sendRequest(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
            maxTokens: 100,
          },
        },
        CreateMessageResultSchema,
      )
      return text(`LLM response: ${answer.content.type === 'text' ? answer.content.text : answer.content.type}`)
    }
    case 'test_elicitation':
      return text(
        `User response: ${await elicit(String(args.message), {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        })}`,
      )
    case 'test_elicitation_sep1034_defaults':
      return text(`Elicitation completed: ${await elicit('Please review your details', sep1034Schema)}`)
    case 'test_elicitation_sep1330_enums':
      return text(`Elicitation completed: ${await elicit('Please choose', sep1330Schema)}`)
    case 'test_tool_with_progress': {
      const progressToken = request.params._meta?.progressToken
      for (const progress of [0, 50, 100]) {
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress, total: 100, message: `step ${progress / 50 + 1} of 3` },
          })
        }
        if (progress < 100) await pause(50)
      }
      return text('Progress test completed')
    }
    case 'test_tool_with_logging':
      for (const [index, line] of [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ].entries()) {
        if (index > 0) await pause(50)
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: line } })
      }
      return text('Logging test completed')
    case 'test_reconnection':
      await pause(200)
      return text('Reconnection test completed successfully')
    case 'json_schema_2020_12_tool':
      return text(JSON.stringify(args))
    default:
      return { content: [{ type: 'text', text: `unknown tool ${request.params.name}` }], isError: true }
  }
})
await server.connect(new StdioServerTransport())
