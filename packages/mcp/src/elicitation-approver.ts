import { AsyncLocalStorage } from 'node:async_hooks'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { RequestId } from '@modelcontextprotocol/sdk/types.js'
import type { ApprovalDecision, ApprovalRequest, Approver } from 'qilin-tools/internal/pipeline/pipeline-events.js'

/** The MCP client a call came from, while `serveMcp` runs it, and the `tools/call` request that started it. */
interface CallOrigin {
  readonly server: Server
  /**
   * Over Streamable HTTP an elicitation sent with this id travels on that request's own response stream; without
   * it, it goes to the optional GET stream, and a client that keeps none never sees it.
   */
  readonly requestId: RequestId
}

const origin = new AsyncLocalStorage<CallOrigin>()
/**
 * The same, by call id: a `run_code` sub-call reaches the approver from inside the sandbox, where the async context
 * is gone, but its `parentId` still names the outer call.
 */
const originsByCall = new Map<string, CallOrigin>()

/**
 * Runs `work` (one `runtime.execute` of call `callId`) on behalf of the client connected to `server`, for its
 * request `requestId`.
 */
export async function runForClient<Value>(
  server: Server,
  requestId: RequestId,
  callId: string,
  work: () => Promise<Value>,
): Promise<Value> {
  const current = { server, requestId }
  originsByCall.set(callId, current)
  try {
    return await origin.run(current, work)
  } finally {
    originsByCall.delete(callId)
  }
}

function originOf(request: ApprovalRequest): CallOrigin | undefined {
  const { id, parentId } = request.call
  return (
    origin.getStore() ?? originsByCall.get(id) ?? (parentId === undefined ? undefined : originsByCall.get(parentId))
  )
}

const approvalSchema = {
  type: 'object' as const,
  properties: { approve: { type: 'boolean' as const, title: 'Approve this call' } },
  required: ['approve'],
}

function question(request: ApprovalRequest): string {
  const reasons = request.reasons.length === 0 ? '' : `\nReason: ${request.reasons.join('; ')}`
  return `Allow the tool call ${request.call.name}(${JSON.stringify(request.call.arguments)})?${reasons}`
}

async function elicit(current: CallOrigin, request: ApprovalRequest): Promise<ApprovalDecision> {
  const answer = await current.server.elicitInput(
    { mode: 'form', message: question(request), requestedSchema: approvalSchema },
    { signal: request.signal, relatedRequestId: current.requestId },
  )
  if (answer.action === 'accept' && answer.content?.approve === true) return true
  return { approved: false, reason: `the user did not approve ${request.call.name} (${answer.action})` }
}

function supportsElicitation(server: Server): boolean {
  const elicitation = server.getClientCapabilities()?.elicitation
  // An empty capability object means form mode (the protocol's backwards-compatible default).
  return elicitation !== undefined && (Object.keys(elicitation).length === 0 || elicitation.form !== undefined)
}

/**
 * An approver for runtimes served over MCP: an `ask` is put to the calling client as an elicitation form when the
 * client supports it; otherwise (or outside `serveMcp`) the fallback decides, and without one the call is denied.
 */
export function elicitationApprover(fallback?: Approver): Approver {
  return (request) => {
    const current = originOf(request)
    if (current !== undefined && supportsElicitation(current.server)) return elicit(current, request)
    if (fallback !== undefined) return fallback(request)
    return { approved: false, reason: `${request.call.name} needs approval and no approver is available` }
  }
}
