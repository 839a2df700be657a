// `qilin-tools/providers`: tool schemas projected for OpenAI, Anthropic and Gemini, their calls and results both
// ways, and one agent-loop turn over each provider's own SDK (`toProviderRequest`, `runToolTurn`).
// Vercel AI SDK interop is `qilin-tools/providers/ai-sdk`. Named exports only.

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
export type {
  AnthropicAssistantMessage,
  AnthropicRequest,
  AnthropicResponse,
  AnthropicTurnMessage,
} from './anthropic/anthropic-turn.js'
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
export type { GeminiModelContent, GeminiRequest, GeminiResponse, GeminiTurnContent } from './gemini/gemini-turn.js'
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
  OpenAIChatAssistantMessage,
  OpenAIChatRequest,
  OpenAIChatResponse,
  OpenAIChatSystemMessage,
  OpenAIChatTurnMessage,
} from './openai/openai-chat-turn.js'
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
export type {
  OpenAIResponsesRequest,
  OpenAIResponsesResponse,
  OpenAIResponsesTurnItem,
} from './openai/openai-responses-turn.js'
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
// one turn of an agent loop over a provider's own SDK
export type { RunToolTurnOptions, ToolTurn, TurnRuntime } from './run-tool-turn.js'
export { runToolTurn } from './run-tool-turn.js'
export { stripStrictNulls } from './strip-strict-nulls.js'
export type { ProviderRequestOptions } from './to-provider-request.js'
export { toProviderRequest } from './to-provider-request.js'
export type { ProviderName, ProviderRequests, ProviderResponses, ProviderTurnMessage } from './turn-formats.js'
