import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  Usage,
} from '@openai/agents'
import { describe, expect, it } from 'vitest'
import { observedRuntime, pipelineTexts, scriptedCalls, settledCalls } from '../framework/__fixtures__/agent-tools.js'
import { toOpenAIAgentsTools } from './to-openai-agents-tools.js'

type ScriptedCall = { readonly id: string; readonly name: string; readonly arguments: unknown }

/** A `Model` that makes the given calls in its first response and answers `done` after; it keeps every request. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = []
  constructor(private readonly calls: readonly ScriptedCall[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request)
    const answered =
      this.calls.length === 0 ||
      (typeof request.input !== 'string' && request.input.some((item) => item.type === 'function_call_result'))
    const output = answered
      ? [
          {
            type: 'message' as const,
            role: 'assistant' as const,
            status: 'completed' as const,
            content: [{ type: 'output_text' as const, text: 'done' }],
          },
        ]
      : this.calls.map((call) => ({
          type: 'function_call' as const,
          callId: call.id,
          name: call.name,
          status: 'completed' as const,
          arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
        }))
    return { usage: new Usage(), output }
  }

  // biome-ignore lint/correctness/useYield: the runner only streams when asked to; these tests never do.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed')
  }
}

/** What the model read back for each call: the output of each `function_call_result` in its last request. */
function resultsSeen(model: ScriptedModel): Record<string, unknown> {
  const input = model.requests.at(-1)?.input
  const items = typeof input === 'string' || input === undefined ? [] : input
  return Object.fromEntries(
    items.flatMap((item: AgentInputItem) =>
      item.type === 'function_call_result'
        ? [[item.callId, (item.output as { text?: string }).text ?? item.output]]
        : [],
    ),
  )
}

const runner = new Runner({ tracingDisabled: true })

describe('toOpenAIAgentsTools', () => {
  it('runs each call through our pipeline and shows the model our words for invalid arguments, timeouts and throws', async () => {
    const { runtime, sessionLog, ran, guarded } = observedRuntime()
    const model = new ScriptedModel(scriptedCalls)
    const agent = new Agent({ name: 'helper', instructions: 'Help.', model, tools: toOpenAIAgentsTools(runtime) })
    const result = await runner.run(agent, 'go')
    expect(result.finalOutput).toBe('done')
    const seen = resultsSeen(model)
    expect(seen).toEqual(await pipelineTexts())
    expect(seen.call_add).toBe('5')
    expect(seen.call_invalid).toMatch(/^Error: /)
    expect(seen.call_slow).toBe('Error: slow did not finish within 50 ms.')
    expect(seen.call_broken).toBe('Error: disk on fire')
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
    const model = new ScriptedModel([])
    await runner.run(new Agent({ name: 'helper', model, tools: toOpenAIAgentsTools(runtime) }), 'go')
    const sent = model.requests[0]?.tools.map((sentTool) =>
      sentTool.type === 'function' ? [sentTool.name, sentTool.description, sentTool.parameters, sentTool.strict] : [],
    )
    expect(sent).toEqual(
      runtime.prompt().tools.map((schema) => [schema.name, schema.description, schema.parameters, false]),
    )
  })

  it('interrupts for approval where the definition needs it; once the runner approves, our approver is not asked', async () => {
    const { runtime, sessionLog, ran, guarded, asked } = observedRuntime()
    const model = new ScriptedModel([{ id: 'call_delete', name: 'delete_file', arguments: { path: 'notes.txt' } }])
    const agent = new Agent({ name: 'helper', model, tools: toOpenAIAgentsTools(runtime) })
    const first = await runner.run(agent, 'go')
    expect(first.interruptions.map((item) => item.name)).toEqual(['delete_file'])
    expect(ran).toEqual([])
    first.state.approve(first.interruptions[0]!)
    const resumed = await runner.run(agent, first.state)
    expect(resumed.finalOutput).toBe('done')
    expect(resultsSeen(model).call_delete).toBe('deleted notes.txt')
    expect(ran).toEqual(['call_delete'])
    expect(guarded).toEqual(['call_delete'])
    expect(asked).toEqual([])
    expect(sessionLog.records).toContainEqual(
      expect.objectContaining({ type: 'tool.call.approval', id: 'call_delete', decidedBy: 'openai-agents' }),
    )
  })

  it('never runs a call the runner rejected', async () => {
    const { runtime, ran, asked } = observedRuntime()
    const model = new ScriptedModel([{ id: 'call_delete', name: 'delete_file', arguments: { path: 'notes.txt' } }])
    const agent = new Agent({ name: 'helper', model, tools: toOpenAIAgentsTools(runtime) })
    const first = await runner.run(agent, 'go')
    first.state.reject(first.interruptions[0]!)
    const resumed = await runner.run(agent, first.state)
    expect(resumed.finalOutput).toBe('done')
    expect(ran).toEqual([])
    expect(asked).toEqual([])
    expect(String(resultsSeen(model).call_delete)).not.toContain('deleted')
  })

  it("with approvals: 'runtime' never interrupts: our approver answers inside the call, yes or no", async () => {
    const { runtime, ran, asked } = observedRuntime({ approve: true })
    const calls = [{ id: 'call_delete', name: 'delete_file', arguments: { path: 'notes.txt' } }]
    const model = new ScriptedModel(calls)
    const tools = toOpenAIAgentsTools(runtime, { approvals: 'runtime' })
    const result = await runner.run(new Agent({ name: 'helper', model, tools }), 'go')
    expect(result.interruptions).toEqual([])
    expect(result.finalOutput).toBe('done')
    expect(asked).toEqual(['call_delete'])
    expect(ran).toEqual(['call_delete'])
    expect(resultsSeen(model).call_delete).toBe('deleted notes.txt')

    const denying = observedRuntime({ approve: false })
    const deniedModel = new ScriptedModel(calls)
    const deniedTools = toOpenAIAgentsTools(denying.runtime, { approvals: 'runtime' })
    await runner.run(new Agent({ name: 'helper', model: deniedModel, tools: deniedTools }), 'go')
    expect(denying.asked).toEqual(['call_delete'])
    expect(denying.ran).toEqual([])
    expect(String(resultsSeen(deniedModel).call_delete)).toMatch(/^Error: /)
  })

  it('takes the scope as a string or in the options, and refuses an approvals value it does not know', () => {
    const { runtime } = observedRuntime()
    const names = (tools: readonly { name: string }[]) => tools.map((each) => each.name)
    expect(names(toOpenAIAgentsTools(runtime, { scope: 'nobody' }))).toEqual(
      names(toOpenAIAgentsTools(runtime, 'nobody')),
    )
    expect(() => toOpenAIAgentsTools(runtime, { approvals: 'model' as 'runner' })).toThrow(
      /approvals must be 'runner' or 'runtime', got string "model"/,
    )
  })

  it('passes the runner signal to execute: an aborted run cancels the call in flight', async () => {
    const { runtime, sessionLog } = observedRuntime()
    const controller = new AbortController()
    const model = new ScriptedModel([{ id: 'call_slow', name: 'slow', arguments: {} }])
    const agent = new Agent({ name: 'helper', model, tools: toOpenAIAgentsTools(runtime) })
    runtime.on('tools/execute', (_exec, next) => {
      setTimeout(() => controller.abort(), 5)
      return next()
    })
    await runner.run(agent, 'go', { signal: controller.signal }).catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(settledCalls(sessionLog)).toEqual([['call_slow', 'ABORTED']])
  })
})
