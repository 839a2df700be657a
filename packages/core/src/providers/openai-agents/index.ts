// `qilin-tools/providers/openai-agents`: our tools for OpenAI Agents JS. Kept apart from `qilin-tools/providers`
// because it imports `@openai/agents` at runtime (an optional peer). Named exports only.

export {
  type OpenAIAgentsApprovals,
  type OpenAIAgentsToolOutput,
  type OpenAIAgentsToolsOptions,
  toOpenAIAgentsTools,
} from './to-openai-agents-tools.js'
