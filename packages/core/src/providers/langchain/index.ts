// `qilin-tools/providers/langchain`: our tools for LangChain. Kept apart from `qilin-tools/providers` because it
// imports `@langchain/core` at runtime (an optional peer). Named exports only.

export { type LangChainToolContent, type QilinLangChainTool, toLangChainTools } from './to-langchain-tools.js'
