import { MockLanguageModelV4 } from 'ai/test'

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
}

/** One tool call the model makes. */
export interface ScriptedToolCall {
  readonly id: string
  readonly name: string
  readonly arguments: unknown
}

/**
 * The AI SDK's own mock model (`ai/test`), scripted: the given calls in its first step, `done` once the prompt holds
 * tool results. `doGenerateCalls` keeps every request.
 */
export function scriptedLanguageModel(calls: readonly ScriptedToolCall[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const answered = calls.length === 0 || prompt.some((message) => message.role === 'tool')
      return {
        content: answered
          ? [{ type: 'text' as const, text: 'done' }]
          : calls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.name,
              input: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
            })),
        finishReason: { unified: answered ? ('stop' as const) : ('tool-calls' as const), raw: undefined },
        usage,
        warnings: [],
      }
    },
  })
}

/** What the model read back for each call in its last request: call id → the tool result's output. */
export function outputsSeen(model: MockLanguageModelV4): Record<string, unknown> {
  const prompt = model.doGenerateCalls.at(-1)?.prompt ?? []
  return Object.fromEntries(
    prompt.flatMap((message) =>
      message.role === 'tool'
        ? message.content.flatMap((part) => (part.type === 'tool-result' ? [[part.toolCallId, part.output]] : []))
        : [],
    ),
  )
}
