// The public surface of `qilin-tools`, what an agent builder needs: named exports only, every value and type pinned
// by `test/public-surface.test.ts`. Internals stay importable from their files inside the package, not from here.
// Provider projections live behind `qilin-tools/providers` and `qilin-tools/providers/ai-sdk`; code mode, MCP, the
// toolkit and the CLI are packages of their own (`@qilin-tools/code-mode`, `@qilin-tools/mcp`, …).

// approvals
export type {
  ApprovalAnswer,
  ApprovalClaim,
  ApprovalFilter,
  ApprovalRecord,
  ApprovalState,
  ClaimResult,
  SessionRecordFilter,
  SettledApprovalOutcome,
  ToolStore,
} from './approvals/approval-store.js'
export {
  findInterruptedCalls,
  type InterruptedCall,
  type LoggedSubCall,
  recoverInterruptedCalls,
} from './approvals/interrupted-calls.js'
export { createMemoryStore } from './approvals/memory-store.js'
// definition
export type {
  AudioPart,
  ContentPart,
  EmbeddedResource,
  ImagePart,
  ResourceLinkPart,
  ResourcePart,
  TextPart,
} from './definition/content.js'
export { defineTool } from './definition/define-tool.js'
export type {
  NeedsApproval,
  OutputValue,
  ReturnCheck,
  ToolConfig,
  ToolOutputConfig,
} from './definition/tool-config.js'
export type {
  AnyToolDefinition,
  CardIntent,
  ExecutionMode,
  FinalizeContext,
  ToolAnnotations,
  ToolDefinition,
  ToolExecution,
  ToolOutput,
} from './definition/tool-definition.js'
export { isToolDefinitionError, ToolDefinitionError } from './definition/tool-definition-error.js'
// errors
export { ToolErrorCode } from './errors/error-codes.js'
export { InvalidArgumentError, isInvalidArgumentError } from './errors/invalid-argument-error.js'
export { isToolError, ToolError, type ToolErrorInfo } from './errors/tool-error.js'
export { isToolRuntimeError, ToolRuntimeError } from './errors/tool-runtime-error.js'
// json-schema
export {
  type CompiledSchema,
  type CompileOptions,
  compileSchema,
  type UnknownKeyword,
  type ValidationIssue,
  type ValidationResult,
} from './json-schema/compile.js'
export type { JsonArray, JsonObject, JsonPrimitive, JsonValue } from './json-schema/json-value.js'
export type { JsonSchemaNode, JsonSchemaObject, JsonSchemaTypeName } from './json-schema/node.js'
export { isSchemaCompileError, SchemaCompileError } from './json-schema/schema-compile-error.js'
// pipeline
export type {
  CallFailure,
  CallOutcome,
  CallSuccess,
  DeferredToolResult,
  PendingApproval,
  ToolCall,
  ToolContext,
  ToolFailure,
  ToolPending,
  ToolResult,
  ToolSuccess,
} from './pipeline/call.js'
export { createToolRuntime } from './pipeline/create-tool-runtime.js'
export type {
  ApprovalDecision,
  ApprovalEvent,
  ApprovalObserver,
  ApprovalRequest,
  ApprovalVerdict,
  Approver,
  CallInfo,
  ExecuteWrapper,
  ListenerOptions,
  NextExecute,
  PostExecuteDecision,
  PostExecuteEvent,
  PostExecuteListener,
  PreExecuteDecision,
  PreExecuteEvent,
  PreExecuteListener,
  ResultEvent,
  ResultObserver,
  ToolEventListeners,
  ToolEventName,
  ToolGuard,
  WrappedExecution,
} from './pipeline/pipeline-events.js'
export { type RetryPolicyOptions, retryPolicy } from './pipeline/retry-policy.js'
export {
  type ApprovalsMode,
  isToolRuntimeConfigError,
  type ToolRuntimeConfig,
  ToolRuntimeConfigError,
} from './pipeline/runtime-config.js'
export { type TimeoutPolicyOptions, timeoutPolicy } from './pipeline/timeout-policy.js'
export type {
  ComposedMode,
  Presentation,
  SubCall,
  SubCallOrigin,
  SubCalls,
  ToolPresenter,
  ToolSearchSplit,
} from './pipeline/tool-presenter.js'
export type {
  AgentRuntime,
  DeferringAgentRuntime,
  DeferringToolRuntime,
  ExecuteOptions,
  PendingApprovalFilter,
  ToolRuntime,
} from './pipeline/tool-runtime.js'

// registry
export type { Disposer } from './registry/disposer.js'
export type { ToolFilter } from './registry/tool-filter.js'
export type { PresentationMode, PromptSection, ToolPrompt, ToolSchema } from './registry/tool-schema.js'
// schema (DSL)
export { SCHEMA_DEPTH_LIMIT, type SchemaDepthLimit } from './schema/depth.js'
export type { InferArgs, InferValue } from './schema/infer.js'
export { isJsonSchemaSpec, type JsonSchemaSpec, jsonSchema } from './schema/json-schema-spec.js'
export { isSchemaSpecError, SchemaSpecError } from './schema/schema-spec-error.js'
export type { StandardInput, StandardOutput, StandardSchemaLike } from './schema/standard-schema.js'
export { parametersToJsonSchema, toJsonSchema } from './schema/to-json-schema.js'
export type {
  ArraySpec,
  BooleanSpec,
  IntegerSpec,
  JsonSpec,
  NullSpec,
  NumberSpec,
  ObjectSpec,
  OneOfSpec,
  ParameterSchemaSpec,
  ParametersSpec,
  PropertySpec,
  SchemaKind,
  SpecAnnotations,
  StringSpec,
  ValueSchemaSpec,
  ValueSpec,
} from './schema/value-spec.js'
// session log
export { createJsonlSessionLog, type JsonlSessionLog } from './session-log/jsonl-session-log.js'
export { createMemorySessionLog, type MemorySessionLog } from './session-log/memory-session-log.js'
export { parseJsonlSessionLog, readJsonlSessionLog } from './session-log/read-jsonl-session-log.js'
export type {
  SessionLog,
  SessionLogRecord,
  ToolCallApprovalRecord,
  ToolCallAttemptRecord,
  ToolCallPendingRecord,
  ToolCallSettledRecord,
  ToolCallStartedRecord,
  ToolCallWaitingRecord,
} from './session-log/session-log.js'
// tool search
export { DESCRIBE_TOOL_NAME, SEARCH_TOOLS_NAME } from './tool-search/search-tools-tool.js'
export type { RankableTool, RankRequest, ToolRanker } from './tool-search/tool-ranker.js'
export type { ToolSearchOptions } from './tool-search/tool-search-options.js'
