/**
 * Input-token accounting for a scripted tool loop (o200k_base). Every model request resends the prefix (system text
 * plus tool definitions) and the whole history, so a loop's cost is the sum over its requests.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import type { ToolCall, ToolResult } from '../../src/pipeline/call.js'
import type { ToolPrompt } from '../../src/registry/tool-schema.js'

/** Per message framing (role, separators), as chat formats add it. */
const MESSAGE_OVERHEAD = 4

export const countTokens = (text: string): number => encode(text).length

export function resultText(result: ToolResult): string {
  return result.content
    .map((part) => (part.type === 'text' ? part.text : `[image ${'mimeType' in part ? part.mimeType : part.type}]`))
    .join('\n')
}

export class Conversation {
  readonly prefixTokens: number
  readonly requests: number[] = []
  #historyTokens = 0

  constructor(task: string, prompt: ToolPrompt) {
    const system = [...prompt.sections].sort((left, right) => left.order - right.order).map((section) => section.text)
    this.prefixTokens =
      countTokens(system.join('\n\n')) +
      countTokens(JSON.stringify(prompt.tools)) +
      countTokens(task) +
      2 * MESSAGE_OVERHEAD
  }

  /** One model request: it reads the prefix and everything so far. */
  request(): void {
    this.requests.push(this.prefixTokens + this.#historyTokens)
  }

  /** The model's turn (its tool calls) and then each result, appended in order. */
  append(calls: readonly ToolCall[], results: readonly ToolResult[]): void {
    const turn = JSON.stringify(calls.map((call) => ({ name: call.name, arguments: call.arguments })))
    this.#historyTokens += countTokens(turn) + MESSAGE_OVERHEAD
    for (const result of results) this.#historyTokens += countTokens(resultText(result)) + MESSAGE_OVERHEAD
  }

  get total(): number {
    return this.requests.reduce((sum, tokens) => sum + tokens, 0)
  }
}
