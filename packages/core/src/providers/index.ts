// `qilin-tools/providers`: tool schemas projected for OpenAI, Anthropic and Gemini, and their calls and results both
// ways. Vercel AI SDK interop is `qilin-tools/providers/ai-sdk`. Named exports only.

// anthropic
export type {
  AnthropicContentBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
  AnthropicUserMessage,
} from './anthropic/anthropic-messages.js'
export {
  fromAnthropicToolUses,
  readAnthropicToolResults,
  toAnthropicToolResults,
  toAnthropicToolUses,
} from './anthropic/anthropic-messages.js'
export type { AnthropicInputSchema, AnthropicTool, AnthropicToolsOptions } from './anthropic/to-anthropic-tools.js'
export { toAnthropicTools } from './anthropic/to-anthropic-tools.js'
// gemini
export type { GeminiContent, GeminiFunctionCall, GeminiFunctionResponse, GeminiPart } from './gemini/gemini-messages.js'
export {
  fromGeminiFunctionCalls,
  readGeminiFunctionResponses,
  toGeminiFunctionCalls,
  toGeminiFunctionResponses,
} from './gemini/gemini-messages.js'
export type { GeminiSchema } from './gemini/gemini-openapi-schema.js'
export type { GeminiFunctionDeclaration, GeminiToolsOptions } from './gemini/to-gemini-tools.js'
export { toGeminiTools } from './gemini/to-gemini-tools.js'
// openai
export type {
  OpenAIChatToolCall,
  OpenAIChatToolMessage,
  OpenAIChatUserMessage,
  OpenAIChatUserPart,
} from './openai/openai-chat-messages.js'
export {
  fromOpenAIChatToolCalls,
  readOpenAIChatResults,
  toOpenAIChatMessages,
  toOpenAIChatToolCalls,
} from './openai/openai-chat-messages.js'
export type {
  OpenAIFunctionCallItem,
  OpenAIFunctionCallOutputItem,
  OpenAIResponsesInputPart,
  OpenAIResponsesUserMessage,
} from './openai/openai-responses-items.js'
export {
  fromOpenAIResponsesCalls,
  readOpenAIResponsesResults,
  toOpenAIResponsesCalls,
  toOpenAIResponsesItems,
} from './openai/openai-responses-items.js'
export type { OpenAIChatTool, OpenAIResponsesTool, OpenAIToolsOptions } from './openai/to-openai-tools.js'
export { toOpenAITools } from './openai/to-openai-tools.js'
// shared by every provider: projection reports and result rendering
export type {
  Projection,
  ProjectionReport,
  ProjectionStatus,
  SchemaChange,
  ToolProjection,
} from './projection-report.js'
// the size budget a projection renders within, shared with code mode
export type { RenderBudget } from './render-budget.js'
export { completeResults } from './results/complete-results.js'
export type { ParseCallsOptions } from './results/decode-call.js'
export type { ProviderResultView, RenderResultsOptions } from './results/result-parts.js'
export { stripStrictNulls } from './strip-strict-nulls.js'
