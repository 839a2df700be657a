// Vercel AI SDK interop. Kept apart from `qilin-tools/providers` because it imports `ai` at runtime.
export { fromAISDKTools, type ImportedAISDKTools } from './from-ai-sdk-tools.js'
export { toAISDKTools } from './to-ai-sdk-tools.js'
