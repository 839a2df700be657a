import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { stepOf } from './travel-script.js'

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
}

/** The AI SDK's own mock model, following the travel script: the round is the assistant messages in its prompt. */
export function scriptedAISDKModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async (options): Promise<LanguageModelV4GenerateResult> => {
      const step = stepOf(options.prompt.filter((message) => message.role === 'assistant').length)
      return typeof step === 'string'
        ? {
            content: [{ type: 'text', text: step }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: step.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.name,
              input: JSON.stringify(call.arguments),
            })),
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          }
    },
  })
}

/** The tool results one model call read, by call id, as text. */
export function aiSdkResultsIn(call: LanguageModelV4CallOptions | undefined): Record<string, string> {
  return Object.fromEntries(
    (call?.prompt ?? []).flatMap((message) =>
      message.role === 'tool'
        ? message.content.flatMap((part) =>
            part.type === 'tool-result' ? [[part.toolCallId, outputText(part.output)]] : [],
          )
        : [],
    ),
  )
}

function outputText(output: { type: string; value?: unknown; reason?: string }): string {
  if (output.type === 'execution-denied') return `denied: ${output.reason ?? ''}`
  if (typeof output.value === 'string') return output.value
  if (Array.isArray(output.value)) {
    return output.value
      .map((part: { type: string; text?: string }) => (part.type === 'text' ? part.text : `[${part.type}]`))
      .join('\n\n')
  }
  return JSON.stringify(output.value)
}
