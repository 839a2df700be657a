// The resources, resource templates, prompts and completions the official MCP conformance suite's server scenarios
// read, offered by the official SDK's `McpServer` over stdio. `fixture-server.ts` connects to it with
// `connectMcpServer` and serves it on through `serveMcp`, so the suite exercises the proxy, not this file.

import { completable } from '@modelcontextprotocol/sdk/server/completable.js'
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'

/** A 1x1 red PNG. */
const redPixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

const server = new McpServer({ name: 'conformance-upstream', version: '1.0.0' })

server.registerResource(
  'static-text',
  'test://static-text',
  { description: 'A fixed text resource.', mimeType: 'text/plain' },
  (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }),
)
server.registerResource(
  'static-binary',
  'test://static-binary',
  { description: 'A one-pixel PNG.', mimeType: 'image/png' },
  (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: redPixel }] }),
)
server.registerResource(
  'watched-resource',
  'test://watched-resource',
  { description: 'A resource clients may subscribe to.', mimeType: 'text/plain' },
  (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content.' }] }),
)
server.registerResource(
  'template-data',
  new ResourceTemplate('test://template/{id}/data', { list: undefined }),
  { description: 'JSON data for one id.', mimeType: 'application/json' },
  (uri, { id }) => ({
    contents: [
      {
        uri: uri.href,
        mimeType: 'application/json',
        text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      },
    ],
  }),
)

const subscriptions = new Set<string>()
server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } })
server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
  subscriptions.add(request.params.uri)
  return {}
})
server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
  subscriptions.delete(request.params.uri)
  return {}
})

server.registerPrompt('test_simple_prompt', { description: 'A prompt without arguments.' }, () => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
}))
server.registerPrompt(
  'test_prompt_with_arguments',
  {
    description: 'A prompt with two arguments.',
    argsSchema: {
      arg1: completable(z.string().describe('First test argument'), (value) =>
        ['paris', 'park', 'party'].filter((word) => word.startsWith(value)),
      ),
      arg2: z.string().describe('Second test argument'),
    },
  },
  ({ arg1, arg2 }) => ({
    messages: [
      { role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
    ],
  }),
)
server.registerPrompt(
  'test_prompt_with_embedded_resource',
  {
    description: 'A prompt that embeds a resource.',
    argsSchema: { resourceUri: z.string().describe('URI of the resource to embed') },
  },
  ({ resourceUri }) => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }),
)
server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image.' }, () => ({
  messages: [
    { role: 'user', content: { type: 'image', data: redPixel, mimeType: 'image/png' } },
    { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
  ],
}))

await server.connect(new StdioServerTransport())
