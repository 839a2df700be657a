import { type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages'
import { describe, expect, it } from 'vitest'
import { observedRuntime, pipelineTexts, scriptedCalls, settledCalls } from '../framework/__fixtures__/agent-tools.js'
import { ScriptedChatModel } from './__fixtures__/scripted-chat-model.js'
import { toLangChainTools } from './to-langchain-tools.js'

/** LangChain's own loop: bind the tools, invoke the model, invoke each tool call, until the model stops calling. */
async function runLoop(model: ScriptedChatModel, tools: ReturnType<typeof toLangChainTools>, signal?: AbortSignal) {
  const bound = model.bindTools(tools)
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const messages: BaseMessage[] = [new HumanMessage('go')]
  const config = signal === undefined ? {} : { signal }
  for (let turn = 0; turn < 4; turn++) {
    const reply = await bound.invoke(messages, config)
    messages.push(reply)
    if (!reply.tool_calls?.length) return messages
    for (const call of reply.tool_calls) messages.push(await byName.get(call.name)!.invoke(call, config))
  }
  return messages
}

function toolMessages(messages: readonly BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message))
}

describe('toLangChainTools', () => {
  it('runs each call through our pipeline; the model reads our words for invalid arguments, timeouts and throws', async () => {
    const { runtime, sessionLog, ran, guarded } = observedRuntime()
    const model = new ScriptedChatModel(scriptedCalls)
    await runLoop(model, toLangChainTools(runtime))
    const lastRequest = toolMessages(model.requests.at(-1)!)
    const seen = Object.fromEntries(lastRequest.map((message) => [message.tool_call_id, message.content]))
    expect(seen).toEqual(await pipelineTexts())
    expect(seen.call_invalid).toMatch(/^Error: /)
    expect(seen.call_broken).toBe('Error: disk on fire')
    const statuses = Object.fromEntries(lastRequest.map((message) => [message.tool_call_id, message.status]))
    expect(statuses).toEqual({
      call_add: 'success',
      call_invalid: 'error',
      call_lookup: 'success',
      call_slow: 'error',
      call_broken: 'error',
    })
    const invalid = lastRequest.find((message) => message.tool_call_id === 'call_invalid')
    expect(invalid?.artifact).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } })
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

  it('binds our schemas, names and descriptions as they are', async () => {
    const { runtime } = observedRuntime()
    const model = new ScriptedChatModel([])
    model.bindTools(toLangChainTools(runtime))
    expect(model.boundTools).toEqual(
      runtime.prompt().tools.map((schema) => ({
        type: 'function',
        function: { name: schema.name, description: schema.description, parameters: schema.parameters },
      })),
    )
  })

  it('leaves a call that needs approval to our approver: a denied call never runs', async () => {
    const { runtime, ran, asked } = observedRuntime()
    const model = new ScriptedChatModel([{ id: 'call_delete', name: 'delete_file', arguments: { path: 'notes.txt' } }])
    const messages = await runLoop(model, toLangChainTools(runtime))
    expect(asked).toEqual(['call_delete'])
    expect(ran).toEqual([])
    expect(toolMessages(messages)[0]).toMatchObject({ status: 'error', artifact: { error: { code: 'DENIED' } } })
  })

  it('answers bare arguments with the content alone, and passes the run signal to execute', async () => {
    const { runtime, sessionLog } = observedRuntime()
    const [add] = toLangChainTools(runtime)
    expect(await add!.invoke({ a: 1, b: 2 })).toBe('3')
    const controller = new AbortController()
    const slow = toLangChainTools(runtime).find((tool) => tool.name === 'slow')!
    setTimeout(() => controller.abort(), 5)
    const message = await slow.invoke(
      { type: 'tool_call', id: 'call_slow', name: 'slow', args: {} },
      { signal: controller.signal },
    )
    expect(message).toMatchObject({ status: 'error', artifact: { error: { code: 'ABORTED' } } })
    expect(settledCalls(sessionLog).at(-1)).toEqual(['call_slow', 'ABORTED'])
  })
})
