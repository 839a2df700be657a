// The tools the official MCP conformance suite's server scenarios call, written with qilin-tools' own `defineTool`
// and served over Streamable HTTP by `serveMcp`. Prints one JSON line with the endpoint, then serves until stopped.
// Resources, templates, prompts and completion come through the proxy: `upstream-resources-server.ts` is connected
// with `connectMcpServer` (unprefixed, as the suite asks for exact prompt names) and passed to `serveMcp`.

import { connectMcpServer, serveMcp } from '@qilin-tools/mcp'
import { createToolRuntime, defineTool } from 'qilin-tools'
import { jsonSchema } from 'qilin-tools/internal/schema/json-schema-spec.js'

/** A 1x1 red PNG. */
const redPixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

/** Two silent samples of 8-bit mono WAV at 8 kHz. */
const silentWav = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQIAAACAgA=='

const runtime = createToolRuntime({ mode: 'native' })
runtime.register(
  defineTool({
    name: 'test_simple_text',
    description: 'Returns a fixed line of text.',
    parameters: {},
    execute: () => 'This is a simple text response for testing.',
  }),
)
runtime.register(
  defineTool({
    name: 'test_image_content',
    description: 'Returns a one-pixel PNG.',
    parameters: {},
    output: { schema: { type: 'string' }, render: (_args, data) => [{ type: 'image', data, mimeType: 'image/png' }] },
    execute: () => redPixel,
  }),
)
runtime.register(
  defineTool({
    name: 'test_audio_content',
    description: 'Returns a short silent WAV.',
    parameters: {},
    output: { schema: { type: 'string' }, render: (_args, data) => [{ type: 'audio', data, mimeType: 'audio/wav' }] },
    execute: () => silentWav,
  }),
)
runtime.register(
  defineTool({
    name: 'test_embedded_resource',
    description: 'Returns a text resource embedded in the result.',
    parameters: {},
    output: {
      schema: { type: 'string' },
      render: (_args, text) => [
        { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text } },
      ],
    },
    execute: () => 'This is an embedded resource content.',
  }),
)
runtime.register(
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Returns text, an image and an embedded resource in one result.',
    parameters: {},
    execute: () => 'Multiple content types test:',
    output: {
      schema: { type: 'string' },
      render: (_args, text) => [
        { type: 'text', text },
        { type: 'image', data: redPixel, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: '{"test":"data","value":123}',
          },
        },
      ],
    },
  }),
)
runtime.register(
  defineTool({
    name: 'test_error_handling',
    description: 'Always fails, to show how a failure reaches the client.',
    parameters: {},
    execute: () => {
      throw new Error('This tool intentionally returns an error for testing')
    },
  }),
)
runtime.register(
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    parameters: jsonSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    }),
    execute: (args) => args,
  }),
)

const resourcesUpstream = await connectMcpServer(runtime, {
  name: 'resources',
  command: process.execPath,
  args: ['--import', 'tsx', new URL('./upstream-resources-server.ts', import.meta.url).pathname],
  prefix: false,
})

const serving = await serveMcp(runtime, {
  transport: { http: { port: 0, auth: 'none' } },
  mode: 'native',
  upstreams: [resourcesUpstream],
})
process.stdout.write(`${JSON.stringify({ url: serving.url })}\n`)
const stop = () =>
  void serving
    .close()
    .then(() => resourcesUpstream.dispose())
    .then(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
