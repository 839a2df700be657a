// The tools the official MCP conformance suite's server scenarios call, written with qilin-tools' own `defineTool`
// (or proxied from `upstream-interactive-server.ts`) and served over Streamable HTTP by `serveMcp`. Prints one JSON
// line with the endpoint, then serves until stopped. Resources, templates, prompts and completion come through the
// proxy too: `upstream-resources-server.ts` is connected with `connectMcpServer` (unprefixed, as the suite asks for
// exact prompt names) and passed to `serveMcp`.

import { fileURLToPath } from 'node:url'
import { connectMcpServer, serveMcp } from '@qilin-tools/mcp'
import { createToolRuntime, defineTool } from 'qilin-tools'

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
// The scenarios in which a tool talks back to the client during its call, and the JSON Schema one, run through the
// proxy: an upstream SDK server, connected over stdio, whose tools are served as ours (no prefix, as the suite names
// them). Declaring sampling and elicitation passes the upstream's requests on to the suite's client.
const interactive = await connectMcpServer(runtime, {
  name: 'interactive',
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(new URL('upstream-interactive-server.ts', import.meta.url))],
  prefix: false,
  capabilities: { sampling: {}, elicitation: { form: {} } },
})

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
  void Promise.all([serving.close(), interactive.dispose()])
    .then(() => resourcesUpstream.dispose())
    .then(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
