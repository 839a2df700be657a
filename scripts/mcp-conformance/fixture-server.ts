// The tools the official MCP conformance suite's server scenarios call, written with qilin-tools' own `defineTool`
// and served over Streamable HTTP by `serveMcp`. Prints one JSON line with the endpoint, then serves until stopped.
import { createToolRuntime, defineTool } from '../../src/index.js'
import { serveMcp } from '../../src/mcp/index.js'
import { jsonSchema } from '../../src/schema/json-schema-spec.js'

/** A 1x1 red PNG. */
const redPixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

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

const serving = await serveMcp(runtime, { transport: { http: { port: 0, auth: 'none' } }, mode: 'native' })
process.stdout.write(`${JSON.stringify({ url: serving.url })}\n`)
const stop = () => void serving.close().then(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
