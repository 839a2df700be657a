// `qilin-tools/providers/mastra`: our tools for Mastra agents. Kept apart from `qilin-tools/providers` because it
// imports `@mastra/core` at runtime (an optional peer). Named exports only.

export { type QilinMastraTool, toMastraTools } from './to-mastra-tools.js'
