// The public surface of `qilin-tools`: named exports only, pinned by `index.test.ts`.
// Node-only runtimes live behind subpaths (`qilin-tools/ptc/node`, `qilin-tools/ptc/python`, `qilin-tools/mcp`,
// `qilin-tools/providers`, `qilin-tools/toolkit`).

// definition
export type { ContentPart, ImagePart, TextPart } from './definition/content.js'
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
// errors
export { ToolErrorCode } from './errors/error-codes.js'
export { isToolError, ToolError, type ToolErrorInfo } from './errors/tool-error.js'
// json-schema
export type { JsonArray, JsonObject, JsonPrimitive, JsonValue } from './json-schema/json-value.js'
export type { JsonSchemaNode, JsonSchemaObject, JsonSchemaTypeName } from './json-schema/node.js'
// pipeline
export type { ToolCall, ToolContext, ToolResult } from './pipeline/call.js'
export type {
  PtcLanguage,
  PtcPresentation,
  PtcRunMetadata,
  PtcRunOutcome,
  PtcRunRequest,
  PtcRuntime,
  PtcToolView,
  SandboxPermissions,
} from './pipeline/ptc-port.js'
// registry
export type { PresentationMode, PromptSection, ToolPrompt, ToolSchema } from './registry/tool-schema.js'
// schema (DSL)
export { SCHEMA_DEPTH_LIMIT, type SchemaDepthLimit } from './schema/depth.js'
