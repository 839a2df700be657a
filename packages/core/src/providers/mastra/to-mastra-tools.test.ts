import { Agent } from '@mastra/core/agent'
import { describe, expect, it } from 'vitest'
import { observedRuntime, pipelineTexts, scriptedCalls, settledCalls } from '../framework/__fixtures__/agent-tools.js'
import { outputsSeen, scriptedLanguageModel } from './__fixtures__/scripted-language-model.js'
import { toMastraTools } from './to-mastra-tools.js'

function agentWith(tools: ReturnType<typeof toMastraTools>, model: ReturnType<typeof scriptedLanguageModel>) {
  // Mastra types the model against its own copy of @ai-sdk/provider, a release behind the one `ai/test` uses.
  const agentModel = model as unknown as ConstructorParameters<typeof Agent>[0]['model']
  return new Agent({ id: 'helper', name: 'helper', instructions: 'Help.', model: agentModel, tools })
}

describe('toMastraTools', () => {
  it('runs each call through our pipeline; the model reads our words for invalid arguments, timeouts and throws', async () => {
    const { runtime, sessionLog, ran, guarded } = observedRuntime()
    const model = scriptedLanguageModel(scriptedCalls)
    const result = await agentWith(toMastraTools(runtime), model).generate('go')
    expect(result.text).toBe('done')
    const expected = await pipelineTexts()
    const seen = outputsSeen(model)
    expect(Object.keys(seen).sort()).toEqual(Object.keys(expected).sort())
    for (const [id, text] of Object.entries(expected))
      expect(seen[id]).toEqual({ type: text.startsWith('Error: ') ? 'error-text' : 'text', value: text })
    expect(ran.sort()).toEqual(['call_add', 'call_broken', 'call_lookup', 'call_slow'])
    expect(guarded.sort()).toEqual(['call_add', 'call_broken', 'call_lookup', 'call_slow'])
    expect(settledCalls(sessionLog).sort()).toEqual([
      ['call_add', 'OK'],
      ['call_broken', 'TOOL_ERROR'],
      ['call_invalid', 'INVALID_ARGUMENTS'],
      ['call_lookup', 'OK'],
      ['call_slow', 'TOOL_TIMEOUT'],
    ])
  })

  it('sends the model our schemas, names and descriptions as they are', async () => {
    const { runtime } = observedRuntime()
    const model = scriptedLanguageModel([])
    await agentWith(toMastraTools(runtime), model).generate('go')
    const sent = (model.doGenerateCalls[0]?.tools ?? []).map((sentTool) =>
      sentTool.type === 'function' ? [sentTool.name, sentTool.description, sentTool.inputSchema] : [],
    )
    expect(sent.sort()).toEqual(
      runtime
        .prompt()
        .tools.map((schema) => [schema.name, schema.description, schema.parameters])
        .sort(),
    )
  })

  it('leaves a call that needs approval to our approver: a denied call never runs', async () => {
    const { runtime, ran, asked } = observedRuntime()
    const model = scriptedLanguageModel([{ id: 'call_delete', name: 'delete_file', arguments: { path: 'notes.txt' } }])
    await agentWith(toMastraTools(runtime), model).generate('go')
    expect(asked).toEqual(['call_delete'])
    expect(ran).toEqual([])
    expect(outputsSeen(model).call_delete).toMatchObject({ type: 'error-text' })
  })

  it('passes the agent abort signal to execute', async () => {
    const { runtime, sessionLog } = observedRuntime()
    const controller = new AbortController()
    const model = scriptedLanguageModel([{ id: 'call_slow', name: 'slow', arguments: {} }])
    runtime.on('tools/execute', (_exec, next) => {
      setTimeout(() => controller.abort(), 5)
      return next()
    })
    await agentWith(toMastraTools(runtime), model)
      .generate('go', { abortSignal: controller.signal })
      .catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(settledCalls(sessionLog)).toEqual([['call_slow', 'ABORTED']])
  })
})
