// `qilin-tools/providers/ai-sdk`: Vercel AI SDK interop. Kept apart from `qilin-tools/providers` because it imports
// `ai` at runtime. Named exports only.

export { fromAISDKTools, type ImportedAISDKTools } from './from-ai-sdk-tools.js'
export { registerAISDKTools } from './register-ai-sdk-tools.js'
export { toAISDKTools } from './to-ai-sdk-tools.js'
