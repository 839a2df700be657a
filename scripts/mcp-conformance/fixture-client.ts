// The client side of the MCP conformance suite: `connectMcpServer` registers the suite server's tools in a runtime,
// and calls go through the runtime's pipeline. The suite runs this with the server URL as the last argument, the
// scenario name in MCP_CONFORMANCE_SCENARIO, and any client credentials in MCP_CONFORMANCE_CONTEXT (JSON).

import { connectMcpServer, type McpJwtAlgorithm, type McpOAuthClient, memoryTokenStore } from '@qilin-tools/mcp'
import { createToolRuntime, type JsonObject } from 'qilin-tools'

/** What each scenario asks the client to do once connected, by the suite server's tool names. */
const callsByScenario: Readonly<Record<string, readonly { name: string; arguments: JsonObject }[]>> = {
  tools_call: [{ name: 'add_numbers', arguments: { a: 5, b: 3 } }],
  'sse-retry': [{ name: 'test_reconnection', arguments: {} }],
  'elicitation-sep1034-client-defaults': [{ name: 'test_client_elicitation_defaults', arguments: {} }],
}

/** The URL the suite's CIMD scenario expects as the client id; its authorization server does not fetch it. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json'

/**
 * Who the client is in each OAuth scenario: registered beforehand, a machine client (client secret or private key),
 * a cross-app access client (the suite's identity provider and the ID token it issued), by metadata document, or
 * dynamically.
 */
function oauthClient(scenario: string): McpOAuthClient {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string>
  if (scenario === 'auth/pre-registration') {
    return { clientId: context.client_id ?? '', clientSecret: context.client_secret ?? '' }
  }
  if (scenario === 'auth/client-credentials-basic') {
    return { grant: 'client_credentials', clientId: context.client_id ?? '', clientSecret: context.client_secret ?? '' }
  }
  if (scenario === 'auth/client-credentials-jwt') {
    return {
      grant: 'client_credentials',
      clientId: context.client_id ?? '',
      privateKey: context.private_key_pem ?? '',
      algorithm: context.signing_algorithm as McpJwtAlgorithm,
    }
  }
  if (scenario === 'auth/cross-app-access-complete-flow') {
    return {
      grant: 'cross_app_access',
      clientId: context.client_id ?? '',
      clientSecret: context.client_secret ?? '',
      identityProvider: { tokenEndpoint: context.idp_token_endpoint ?? '', clientId: context.idp_client_id ?? '' },
      idToken: context.idp_id_token ?? '',
    }
  }
  if (scenario === 'auth/basic-cimd') return { clientMetadataUrl: CLIENT_METADATA_URL }
  return true
}

/**
 * The suite's authorization servers approve at once with a redirect to our loopback listener: this "browser"
 * fetches the authorization URL and follows that one redirect, as a person's browser would.
 */
async function followAuthorization(authorizationUrl: URL): Promise<void> {
  const approval = await fetch(authorizationUrl, { redirect: 'manual', signal: AbortSignal.timeout(10_000) })
  const location = approval.headers.get('location')
  if (location === null) throw new Error(`the authorization endpoint answered ${approval.status} without a redirect`)
  await fetch(new URL(location, authorizationUrl), { signal: AbortSignal.timeout(10_000) })
}

const url = process.argv.at(-1)
if (url === undefined || !/^https?:\/\//.test(url)) throw new Error('usage: fixture-client.ts <server url>')
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize'
const oauth = scenario.startsWith('auth/')

const runtime = createToolRuntime({ mode: 'native' })
// The host's answer to a form: the user accepts it as shown, so every field keeps the default the form offered.
const connection = await connectMcpServer(runtime, {
  name: 'suite',
  url,
  prefix: false,
  onElicitation: async () => ({ action: 'accept', content: {} }),
  ...(oauth && { oauth: oauthClient(scenario), openBrowser: followAuthorization, tokenStore: memoryTokenStore() }),
})
let failed = false
for (const call of callsByScenario[scenario] ?? (oauth ? [{ name: 'test-tool', arguments: {} }] : [])) {
  const result = await runtime.execute({ id: `${scenario}-${call.name}`, name: call.name, arguments: call.arguments })
  process.stdout.write(`${JSON.stringify({ call: call.name, ok: result.ok, content: result.content })}\n`)
  if (!result.ok) failed = true
}
await connection.dispose()
process.exitCode = failed ? 1 : 0
