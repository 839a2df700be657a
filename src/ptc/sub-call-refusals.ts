import { argumentsTooLarge } from './arguments-too-large.js'

/**
 * How the host words a sub-call it refuses before the pipeline sees it, the same in both runtimes. The program
 * receives these as a `ToolCallError` it may catch; uncaught, they end the run as its own error.
 */
export const subCallRefusalText = {
  unknownTool: (name: string) => `no tool named ${JSON.stringify(name)} is available to this program`,
  notAnObject: () => 'tool arguments must be a JSON object',
  notLossless: () => 'tool arguments must be JSON with finite numbers only',
  tooDeep: (maxDepth: number) => `tool arguments nest deeper than ${maxDepth} levels`,
  tooLarge: argumentsTooLarge,
} as const
