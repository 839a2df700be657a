import { generateText, type ModelMessage, stepCountIs } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { defineTool } from '../../definition/define-tool.js'
import { createToolRuntime } from '../../pipeline/create-tool-runtime.js'
import { toAISDKTools } from './to-ai-sdk-tools.js'

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
}

const toolCallStep = (input: unknown) => ({
  content: [
    { type: 'tool-call' as const, toolCallId: 'call-1', toolName: 'delete_file', input: JSON.stringify(input) },
  ],
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
})
const textStep = {
  content: [{ type: 'text' as const, text: 'done' }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
}

/** A runtime with no approver at all: if our pipeline asked again, the call would be denied for want of one. */
function setup(needsApproval: boolean | ((args: { path: string }) => boolean) = true) {
  const runtime = createToolRuntime()
  const ran: string[] = []
  runtime.register(
    defineTool({
      name: 'delete_file',
      description: 'Delete a file.',
      parameters: { path: { type: 'string', required: true } },
      needsApproval,
      execute: ({ path }) => {
        ran.push(path)
        return `deleted ${path}`
      },
    }),
  )
  return { runtime, ran }
}

/** The first turn: the model calls the tool, and the SDK stops at its approval request. */
async function requestApproval(runtime: ReturnType<typeof setup>['runtime'], input: unknown = { path: 'a.txt' }) {
  const first = await generateText({
    model: new MockLanguageModelV4({ doGenerate: [toolCallStep(input), textStep] }),
    tools: toAISDKTools(runtime),
    prompt: 'delete a.txt',
    stopWhen: stepCountIs(3),
  })
  const request = first.content.find((part) => part.type === 'tool-approval-request')
  return { first, request }
}

/** The second turn: the app answers the request, and the SDK carries the call out (or not). */
async function answer(
  runtime: ReturnType<typeof setup>['runtime'],
  first: Awaited<ReturnType<typeof requestApproval>>['first'],
  approvalId: string,
  approved: boolean,
) {
  const messages: ModelMessage[] = [
    { role: 'user', content: 'delete a.txt' },
    ...first.response.messages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved, reason: 'checked' }] },
  ]
  const model = new MockLanguageModelV4({ doGenerate: [textStep] })
  await generateText({ model, tools: toAISDKTools(runtime), messages, stopWhen: stepCountIs(3) })
  // What the model was sent next: the tool results of the calls the SDK carried out after the response.
  return model.doGenerateCalls[0]!.prompt.flatMap((message) =>
    message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
  )
}

describe('toAISDKTools and the AI SDK approval flow', () => {
  it('emits the SDK approval request for needsApproval, and runs the body once when approved', async () => {
    const { runtime, ran } = setup()
    const approvals: string[] = []
    runtime.on('tools/approval', (event) => {
      approvals.push(event.verdict)
    })
    const { first, request } = await requestApproval(runtime)
    expect(request).toMatchObject({ type: 'tool-approval-request', toolCall: { toolCallId: 'call-1' } })
    expect(ran).toEqual([])
    const sent = await answer(runtime, first, request!.approvalId, true)
    expect(ran).toEqual(['a.txt'])
    expect(sent).toMatchObject([{ toolCallId: 'call-1', output: { type: 'text', value: 'deleted a.txt' } }])
    expect(approvals).toEqual(['approved'])
  })

  it('never runs the body when the response denies', async () => {
    const { runtime, ran } = setup()
    const { first, request } = await requestApproval(runtime)
    const sent = await answer(runtime, first, request!.approvalId, false)
    expect(ran).toEqual([])
    expect(sent).toMatchObject([{ toolCallId: 'call-1', output: { type: 'execution-denied' } }])
  })

  it('still enforces policy when the approved response arrives: a guard added meanwhile denies', async () => {
    const { runtime, ran } = setup()
    const { first, request } = await requestApproval(runtime)
    runtime.guard(() => 'deleting is off today')
    const sent = await answer(runtime, first, request!.approvalId, true)
    expect(ran).toEqual([])
    expect(sent).toMatchObject([
      { toolCallId: 'call-1', output: { type: 'error-text', value: 'Error: deleting is off today' } },
    ])
  })

  it('asks the SDK only for the calls a needsApproval function says need it', async () => {
    const { runtime, ran } = setup(({ path }) => path.startsWith('/'))
    const { request: local } = await requestApproval(runtime, { path: 'a.txt' })
    expect(local).toBeUndefined()
    expect(ran).toEqual(['a.txt'])
    const { request: rooted } = await requestApproval(runtime, { path: '/etc/passwd' })
    expect(rooted).toBeDefined()
    expect(ran).toEqual(['a.txt'])
  })

  it('gives a tool without needsApproval no SDK approval, as before', () => {
    const { runtime } = setup(false)
    expect(toAISDKTools(runtime).delete_file).not.toHaveProperty('needsApproval')
  })
})
