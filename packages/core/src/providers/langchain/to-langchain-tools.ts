import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager'
import { ToolMessage } from '@langchain/core/messages'
import { DynamicStructuredTool, type ToolRunnableConfig } from '@langchain/core/tools'
import type { ToolResult } from '../../pipeline/call.js'
import type { ExecuteOptions, ToolRuntime } from '../../pipeline/tool-runtime.js'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { frameworkArguments } from '../framework/framework-arguments.js'
import { type PassThroughSchema, passThroughSchema } from '../framework/pass-through-schema.js'
import { inScope } from '../framework/scope-view.js'
import { isAllText, shownParts, shownText } from '../framework/shown-result.js'

/** What a LangChain model reads of one result: the text, or text and image blocks in order. */
export type LangChainToolContent =
  | string
  | ({ type: 'text'; text: string } | { type: 'image'; mimeType: string; data: string })[]

/**
 * A LangChain structured tool whose schema is ours. Invoked with a tool call it answers a `ToolMessage`: our
 * content, `status: 'error'` for a failure, and our whole `ToolResult` as its `artifact`; invoked with bare
 * arguments it answers the content alone.
 */
export type QilinLangChainTool = DynamicStructuredTool<
  PassThroughSchema,
  unknown,
  unknown,
  ToolMessage | LangChainToolContent
>

/**
 * The tools a runtime scope presents (`prompt().tools`: `run_code` in code mode), as LangChain structured tools
 * (`@langchain/core`). Each call runs through our pipeline with the run's signal; our pipeline is the one validator
 * (LangChain's schema check accepts everything), so an invalid call reaches the model as our `Error: …` text in a
 * `ToolMessage` with `status: 'error'`, its code in the artifact. `scope` is an agent id, looked up on each call.
 */
export function toLangChainTools(runtime: ToolRuntime, scope?: string): QilinLangChainTool[] {
  return inScope(runtime, scope, (view) => view.prompt().tools.map((schema) => langChainTool(runtime, scope, schema)))
}

function langChainTool(runtime: ToolRuntime, scope: string | undefined, schema: ToolSchema): QilinLangChainTool {
  const name = schema.name
  const func = async (input: unknown, _manager?: CallbackManagerForToolRun, config?: ToolRunnableConfig) => {
    const callId = config?.toolCall?.id
    const call = { id: callId ?? '', name, arguments: frameworkArguments(input) }
    const options: ExecuteOptions = config?.signal === undefined ? {} : { signal: config.signal }
    const result = await inScope(runtime, scope, (view) => view.execute(call, options))
    return callId === undefined ? content(result) : toolMessage(result, callId)
  }
  return new DynamicStructuredTool({
    name,
    description: schema.description,
    schema: passThroughSchema(schema.parameters),
    func,
  }) as QilinLangChainTool
}

function toolMessage(result: ToolResult, callId: string): ToolMessage {
  return new ToolMessage({
    content: content(result),
    tool_call_id: callId,
    name: result.name,
    status: result.ok ? 'success' : 'error',
    artifact: result,
  })
}

function content(result: ToolResult): LangChainToolContent {
  const parts = shownParts(result)
  if (isAllText(parts)) return shownText(parts)
  return parts.map((part) =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : { type: 'image', mimeType: part.mimeType, data: part.data },
  )
}
