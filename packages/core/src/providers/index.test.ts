import { describe, expect, it } from 'vitest'
import * as aiSdk from './ai-sdk/index.js'
import * as providers from './index.js'
import * as langChain from './langchain/index.js'
import * as mastra from './mastra/index.js'
import * as openAIAgents from './openai-agents/index.js'

describe('public surface', () => {
  it('qilin-tools/providers exports exactly these values', () => {
    expect(Object.keys(providers).sort()).toEqual([
      'completeResults',
      'fromAnthropicToolUses',
      'fromGeminiFunctionCalls',
      'fromOpenAIChatToolCalls',
      'fromOpenAIResponsesCalls',
      'readAnthropicToolResults',
      'readGeminiFunctionResponses',
      'readOpenAIChatResults',
      'readOpenAIResponsesResults',
      'runToolTurn',
      'stripStrictNulls',
      'toAnthropicToolResults',
      'toAnthropicToolUses',
      'toAnthropicTools',
      'toGeminiFunctionCalls',
      'toGeminiFunctionResponses',
      'toGeminiTools',
      'toOpenAIChatMessages',
      'toOpenAIChatToolCalls',
      'toOpenAIResponsesCalls',
      'toOpenAIResponsesItems',
      'toOpenAITools',
      'toProviderRequest',
    ])
  })

  it('the AI SDK interop exports exactly these values', () => {
    expect(Object.keys(aiSdk).sort()).toEqual(['fromAISDKTools', 'registerAISDKTools', 'toAISDKTools'])
  })

  it('each framework adapter entry point exports its one function', () => {
    expect(Object.keys(openAIAgents)).toEqual(['toOpenAIAgentsTools'])
    expect(Object.keys(langChain)).toEqual(['toLangChainTools'])
    expect(Object.keys(mastra)).toEqual(['toMastraTools'])
  })
})
