// What we claim against the official MCP conformance suite, scenario by scenario. `offered` scenarios must pass every
// check; the others name why not. A scenario that starts passing while marked otherwise fails the run too, so the
// table (and the README's list, which quotes the reasons) cannot go stale.

/** Our claim for one suite scenario. */
export type ScenarioClaim = { readonly offered: true } | { readonly offered: false; readonly reason: string }

const offered: ScenarioClaim = { offered: true }

/** Server scenarios, run against `serveMcp` over Streamable HTTP serving `fixture-server.ts`. */
export const serverScenarios: Readonly<Record<string, ScenarioClaim>> = {
  'server-initialize': offered,
  ping: offered,
  'tools-list': offered,
  'tools-call-simple-text': offered,
  'tools-call-image': offered,
  'tools-call-error': offered,
  'json-schema-2020-12': offered,
  'server-sse-multiple-streams': offered,
  'dns-rebinding-protection': offered,
  'logging-set-level': offered,
  'completion-complete': offered,
  'tools-call-audio': offered,
  'tools-call-embedded-resource': offered,
  'tools-call-mixed-content': offered,
  'tools-call-with-logging': offered,
  'tools-call-with-progress': offered,
  'tools-call-sampling': offered,
  'tools-call-elicitation': offered,
  'elicitation-sep1034-defaults': offered,
  'elicitation-sep1330-enums': offered,
  // Resumable streams are offered (priming event with a retry time, replay after Last-Event-ID) to clients of
  // 2025-11-25 and later. This scenario's requests carry `mcp-protocol-version: 2025-03-26`, to which the SDK
  // rightly sends no priming event (older clients cannot read its empty data), so it can only warn.
  'server-sse-polling': {
    offered: false,
    reason:
      'its requests declare protocol 2025-03-26, which gets no priming event; its checks are SHOULDs that can only warn',
  },
  'resources-list': offered,
  'resources-read-text': offered,
  'resources-read-binary': offered,
  'resources-templates-read': offered,
  'resources-subscribe': offered,
  'resources-unsubscribe': offered,
  'prompts-list': offered,
  'prompts-get-simple': offered,
  'prompts-get-with-args': offered,
  'prompts-get-embedded-resource': offered,
  'prompts-get-with-image': offered,
}

/** Client scenarios, run against `connectMcpServer` through `fixture-client.ts`. */
export const clientScenarios: Readonly<Record<string, ScenarioClaim>> = {
  initialize: offered,
  tools_call: offered,
  'sse-retry': offered,
  'elicitation-sep1034-client-defaults': offered,
  'auth/client-credentials-jwt': offered,
  'auth/client-credentials-basic': offered,
  'auth/cross-app-access-complete-flow': offered,
}

/** Client scenarios claimed by prefix: every OAuth scenario of the suite but those named above. */
export const clientScenarioPrefixes: Readonly<Record<string, ScenarioClaim>> = {
  'auth/': offered,
}
