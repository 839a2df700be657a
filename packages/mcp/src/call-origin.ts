import { AsyncLocalStorage } from 'node:async_hooks'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { ProgressToken, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js'

/**
 * The MCP client a call came from while `serveMcp` runs it, and the `tools/call` request that started it. Requests
 * and notifications sent through it travel on that request's own response stream over Streamable HTTP; without the
 * relation they would go to the optional GET stream, and a client that keeps none would never see them.
 */
export interface CallOrigin {
  readonly server: Server
  readonly requestId: RequestHandlerExtra<ServerRequest, ServerNotification>['requestId']
  /** The token the client asked progress to be reported under, when it asked. */
  readonly progressToken: ProgressToken | undefined
  readonly sendRequest: RequestHandlerExtra<ServerRequest, ServerNotification>['sendRequest']
  readonly sendNotification: RequestHandlerExtra<ServerRequest, ServerNotification>['sendNotification']
}

const origin = new AsyncLocalStorage<CallOrigin>()
/**
 * The same, by call id: a `run_code` sub-call reaches the approver and the MCP tool bodies from inside the sandbox,
 * where the async context is gone, but its id (`<parent>:ptc:<n>`) and `parentId` still name the outer call.
 */
const originsByCall = new Map<string, CallOrigin>()

/** Runs `work` (one `runtime.execute` of call `callId`) on behalf of the client request `current` describes. */
export async function runForClient<Value>(
  current: CallOrigin,
  callId: string,
  work: () => Promise<Value>,
): Promise<Value> {
  originsByCall.set(callId, current)
  try {
    return await origin.run(current, work)
  } finally {
    originsByCall.delete(callId)
  }
}

/** The origin of the call running here, or of call `callId` (or its parent `parentId`), if `serveMcp` runs it. */
export function callOriginOf(callId: string, parentId?: string): CallOrigin | undefined {
  const outer = parentId ?? callId.split(':ptc:')[0]
  return origin.getStore() ?? originsByCall.get(callId) ?? (outer === undefined ? undefined : originsByCall.get(outer))
}

/** Whether the client behind `current` declared `kind` (for elicitation, in `mode`: `form` unless it says `url`). */
export function clientSupports(current: CallOrigin, kind: 'sampling' | 'elicitation', mode?: string): boolean {
  const capabilities = current.server.getClientCapabilities()
  if (kind === 'sampling') return capabilities?.sampling !== undefined
  const elicitation = capabilities?.elicitation
  if (elicitation === undefined) return false
  if (mode === 'url') return elicitation.url !== undefined
  // An empty capability object means form mode (the protocol's backwards-compatible default).
  return Object.keys(elicitation).length === 0 || elicitation.form !== undefined
}
