import type { DeferredToolResult, ToolCall } from '../pipeline/call.js'
import type { ToolSchema } from '../registry/tool-schema.js'
import type { ProjectionReport } from './projection-report.js'

/** What one provider response holds for a turn: the assistant side to send back, its calls in order, its text. */
export interface ReadTurn<Message> {
  /** The assistant message (or output items) as it must be sent back: call ids repaired, nothing else changed. */
  readonly assistant: Message[]
  readonly calls: ToolCall[]
  readonly text: string
}

/** How the parsers read a turn's calls: the projection the tools were sent with, and the schemas projected. */
export interface TurnContext {
  readonly report: ProjectionReport
  readonly schemas: readonly ToolSchema[]
}

/**
 * One provider's part in a turn: read a response (hostile; anything but the provider's own kind of response
 * throws `InvalidArgumentError`), answer its calls, and project a request. `runToolTurn` and `toProviderRequest`
 * are this table's only readers.
 */
export interface TurnFormat<Message, Request, Tool> {
  /** The projection of the prompt's tools this provider is sent. */
  project(schemas: readonly ToolSchema[]): { readonly tools: Tool[]; readonly report: ProjectionReport }
  read(response: unknown, context: TurnContext): ReadTurn<Message>
  /** The messages that answer `calls`, exactly one result each, in order. */
  answer(calls: readonly ToolCall[], results: readonly DeferredToolResult[], report: ProjectionReport): Message[]
  /** The request fields: the system text (absent when empty) and the tools (absent when none). */
  request(system: string, tools: Tool[]): Request
}
