import { ToolErrorCode } from '../errors/error-codes.js'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import type { DeferredToolResult, ToolCall, ToolFailure } from '../pipeline/call.js'
import type { ExecuteOptions } from '../pipeline/tool-runtime.js'
import type { ToolPrompt } from '../registry/tool-schema.js'
import { completeResults } from './results/complete-results.js'
import {
  type ProviderName,
  type ProviderResponses,
  type ProviderTurnMessage,
  projectionOf,
  turnFormatOf,
} from './turn-formats.js'

/** What a turn needs of a runtime: its prompt (to map tool names back) and `executeAll`; deferred results welcome. */
export interface TurnRuntime {
  prompt(): ToolPrompt
  executeAll(calls: readonly ToolCall[], options?: ExecuteOptions): Promise<readonly DeferredToolResult[]>
}

/** How `runToolTurn` reads and runs one response. */
export interface RunToolTurnOptions<Provider extends ProviderName> {
  /** Which API the response came from. */
  readonly provider: Provider
  /** Cancels the turn: calls not yet dispatched settle `ABORTED_BEFORE_DISPATCH`, each still answered. @default none */
  readonly signal?: AbortSignal
  /**
   * Most calls one response may run; those past it are answered `DENIED` without running, so a model that asks
   * for thousands of calls costs thousands of refusals, not thousands of tool runs. @default 128
   */
  readonly maxCalls?: number
}

/** One model turn, done: what to append to the conversation, and whether the loop goes on. */
export interface ToolTurn<Message> {
  /**
   * Append these to the conversation, in order: the assistant's side first (the response's message or output items,
   * call ids repaired where the model left them out or repeated them; send these, not the response's own), then
   * exactly one result per call (a pending approval as its "awaiting approval" text).
   */
  readonly messages: Message[]
  /** The response's calls in order, one per call the model made. */
  readonly calls: readonly ToolCall[]
  /** One result per call, in call order: settled, or pending under `approvals: 'defer'`. */
  readonly results: readonly DeferredToolResult[]
  /** True when the response made no call: the model has answered and the loop ends. */
  readonly done: boolean
  /** The response's text (its assistant text parts, joined); `''` when it has none. */
  readonly text: string
}

const defaultMaxCalls = 128

/**
 * Runs one provider response's tool calls: parses them with the provider's parsers (names mapped back through the
 * projection `toProviderRequest` sent), runs them with `executeAll`, and returns the messages to append, every
 * call paired with exactly one result. A response is hostile: malformed calls become failed results, never a
 * throw; only a value that is not that provider's response at all throws `InvalidArgumentError`.
 */
export async function runToolTurn<
  const Provider extends ProviderName,
  Response extends ProviderResponses[Provider] = ProviderResponses[Provider],
>(
  runtime: TurnRuntime,
  response: Response,
  options: RunToolTurnOptions<Provider>,
): Promise<ToolTurn<ProviderTurnMessage<Provider, Response>>> {
  const format = turnFormatOf(options?.provider, 'runToolTurn')
  const maxCalls = options.maxCalls ?? defaultMaxCalls
  if (!Number.isInteger(maxCalls) || maxCalls < 0) {
    throw new InvalidArgumentError('runToolTurn: maxCalls must be a non-negative integer')
  }
  const prompt = runtime.prompt()
  const { report } = projectionOf(format, prompt.tools)
  const turn = format.read(response, { report, schemas: prompt.tools })
  type Message = ProviderTurnMessage<Provider, Response>
  if (turn.calls.length === 0) {
    return { messages: turn.assistant as Message[], calls: [], results: [], done: true, text: turn.text }
  }
  const admitted = turn.calls.slice(0, maxCalls)
  const settled = await runtime.executeAll(admitted, options.signal === undefined ? {} : { signal: options.signal })
  const refused = turn.calls.slice(maxCalls).map((call) => overLimit(call, maxCalls))
  const results = completeResults(turn.calls, [...settled, ...refused])
  const answers = format.answer(turn.calls, results, report)
  return {
    messages: [...turn.assistant, ...answers] as Message[],
    calls: turn.calls,
    results,
    done: false,
    text: turn.text,
  }
}

function overLimit(call: ToolCall, maxCalls: number): ToolFailure {
  const message = `The call to ${call.name || 'a tool'} was not run: one turn runs at most ${maxCalls} tool calls.`
  return {
    id: call.id,
    name: call.name,
    ok: false,
    content: [{ type: 'text', text: `Error: ${message}` }],
    error: { code: ToolErrorCode.DENIED, message },
    durationMs: 0,
  }
}
