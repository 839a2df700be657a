/**
 * The attribute names a tool span carries. `gen_ai.*` and `error.type` are the OpenTelemetry GenAI semantic
 * conventions for tool execution; `qilin.*` are this library's own facts, which the conventions have no name for.
 */
export const GenAiAttribute = {
  OPERATION_NAME: 'gen_ai.operation.name',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  TOOL_DESCRIPTION: 'gen_ai.tool.description',
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  ERROR_TYPE: 'error.type',
  AGENT_ID: 'qilin.agent.id',
  PARENT_CALL_ID: 'qilin.tool.parent_call.id',
  ERROR_MESSAGE: 'qilin.error.message',
  SUB_CALLS: 'qilin.ptc.sub_calls',
  BYTES_KEPT_OUT: 'qilin.ptc.bytes_kept_out',
} as const

/** The span events a tool span may carry, and their attributes. */
export const ToolSpanEvent = {
  APPROVAL_REQUESTED: 'qilin.approval.requested',
  APPROVAL_DECIDED: 'qilin.approval.decided',
  RETRY: 'qilin.retry',
} as const

/** Attributes of the span events. */
export const ToolSpanEventAttribute = {
  REASONS: 'qilin.approval.reasons',
  VERDICT: 'qilin.approval.verdict',
  REASON: 'qilin.approval.reason',
  DECIDED_BY: 'qilin.approval.decided_by',
  WAIT_MS: 'qilin.approval.wait_ms',
  ATTEMPT: 'qilin.retry.attempt',
} as const

/** The operation every tool span names, per the conventions. */
export const EXECUTE_TOOL = 'execute_tool'
