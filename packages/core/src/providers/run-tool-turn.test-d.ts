import type Anthropic from '@anthropic-ai/sdk'
import type OpenAI from 'openai'
import { describe, expectTypeOf, it } from 'vitest'
import type { ToolRuntime } from '../pipeline/tool-runtime.js'
import type { GeminiRequest, GeminiResponse } from './gemini/gemini-turn.js'
import { runToolTurn } from './run-tool-turn.js'
import { toProviderRequest } from './to-provider-request.js'

declare const runtime: ToolRuntime
declare const completion: OpenAI.Chat.Completions.ChatCompletion
declare const response: OpenAI.Responses.Response
declare const message: Anthropic.Messages.Message
declare const generated: GeminiResponse

describe('runToolTurn', () => {
  it('takes each SDK’s own response, and its messages go straight into that SDK’s next request', async () => {
    const chat = await runToolTurn(runtime, completion, { provider: 'openai-chat' })
    expectTypeOf(chat.messages).toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam[]>()
    const responses = await runToolTurn(runtime, response, { provider: 'openai-responses' })
    // Every item but the two output kinds the SDK itself does not take back as input (openai 6.49).
    type NotInput = { type: 'computer_call_output' | 'additional_tools' }
    expectTypeOf<
      Exclude<(typeof responses.messages)[number], NotInput>
    >().toExtend<OpenAI.Responses.ResponseInputItem>()
    const anthropic = await runToolTurn(runtime, message, { provider: 'anthropic' })
    expectTypeOf(anthropic.messages).toExtend<Anthropic.Messages.MessageParam[]>()
    const gemini = await runToolTurn(runtime, generated, { provider: 'gemini' })
    expectTypeOf(gemini.messages[0]!.role).toEqualTypeOf<'model' | 'user'>()
    expectTypeOf(chat.done).toEqualTypeOf<boolean>()
    expectTypeOf(chat.text).toEqualTypeOf<string>()
  })

  it('refuses a response of another provider, and a provider it does not speak', () => {
    // @ts-expect-error an Anthropic message is not a Chat Completions response
    void runToolTurn(runtime, message, { provider: 'openai-chat' })
    // @ts-expect-error a Chat Completions response is not an Anthropic message
    void runToolTurn(runtime, completion, { provider: 'anthropic' })
    // @ts-expect-error not a provider runToolTurn speaks
    void runToolTurn(runtime, completion, { provider: 'bedrock' })
    // @ts-expect-error the provider is required
    void runToolTurn(runtime, completion, {})
  })
})

describe('toProviderRequest', () => {
  it('gives each provider its own request fields, which its SDK takes', () => {
    const chat = toProviderRequest(runtime, 'openai-chat')
    expectTypeOf(chat.messages).toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam[]>()
    expectTypeOf(chat.tools).toExtend<OpenAI.Chat.Completions.ChatCompletionTool[] | undefined>()
    const responses = toProviderRequest(runtime, 'openai-responses')
    expectTypeOf(responses.instructions).toEqualTypeOf<string | undefined>()
    expectTypeOf(responses.tools).toExtend<OpenAI.Responses.Tool[] | undefined>()
    const anthropic = toProviderRequest(runtime, 'anthropic')
    expectTypeOf(anthropic.tools).toExtend<Anthropic.Messages.ToolUnion[] | undefined>()
    expectTypeOf(anthropic.system).toEqualTypeOf<string | undefined>()
    expectTypeOf(toProviderRequest(runtime, 'gemini')).toEqualTypeOf<GeminiRequest>()
    // @ts-expect-error a Chat Completions request has no `system` field
    void chat.system
    // @ts-expect-error not a provider toProviderRequest speaks
    toProviderRequest(runtime, 'bedrock')
  })
})
