// The client side of the MCP conformance suite: `connectMcpServer` registers the suite server's tools in a runtime,
// and calls go through the runtime's pipeline. The suite runs this with the server URL as the last argument and the
// scenario name in MCP_CONFORMANCE_SCENARIO.

import { connectMcpServer } from '@qilin-tools/mcp'
import { createToolRuntime, type JsonObject } from 'qilin-tools'

/** What each scenario asks the client to do once connected, by the suite server's tool names. */
const callsByScenario: Readonly<Record<string, readonly { name: string; arguments: JsonObject }[]>> = {
  tools_call: [{ name: 'add_numbers', arguments: { a: 5, b: 3 } }],
  'sse-retry': [{ name: 'test_reconnection', arguments: {} }],
  'elicitation-sep1034-client-defaults': [{ name: 'test_client_elicitation_defaults', arguments: {} }],
}

const url = process.argv.at(-1)
if (url === undefined || !/^https?:\/\//.test(url)) throw new Error('usage: fixture-client.ts <server url>')
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize'

const runtime = createToolRuntime({ mode: 'native' })
// The host's answer to a form: the user accepts it as shown, so every field keeps the default the form offered.
const connection = await connectMcpServer(runtime, {
  name: 'suite',
  url,
  prefix: false,
  onElicitation: async () => ({ action: 'accept', content: {} }),
})
let failed = false
for (const call of callsByScenario[scenario] ?? []) {
  const result = await runtime.execute({ id: `${scenario}-${call.name}`, name: call.name, arguments: call.arguments })
  process.stdout.write(`${JSON.stringify({ call: call.name, ok: result.ok, content: result.content })}\n`)
  if (!result.ok) failed = true
}
await connection.dispose()
process.exitCode = failed ? 1 : 0
