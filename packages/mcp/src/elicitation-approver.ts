import type { ApprovalDecision, ApprovalRequest, Approver } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import { type CallOrigin, callOriginOf, clientSupports } from './call-origin.js'

function originOf(request: ApprovalRequest): CallOrigin | undefined {
  return callOriginOf(request.call.id, request.call.parentId)
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

/**
 * An approver for runtimes served over MCP: an `ask` is put to the calling client as an elicitation form when the
 * client supports it; otherwise (or outside `serveMcp`) the fallback decides, and without one the call is denied.
 */
export function elicitationApprover(fallback?: Approver): Approver {
  return (request) => {
    const current = originOf(request)
    if (current !== undefined && clientSupports(current, 'elicitation', 'form')) return elicit(current, request)
    if (fallback !== undefined) return fallback(request)
    return { approved: false, reason: `${request.call.name} needs approval and no approver is available` }
  }
}
