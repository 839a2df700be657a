import type { ContentPart } from '../definition/content.js'
import type { AnyToolDefinition, ToolExecution } from '../definition/tool-definition.js'
import type { ToolErrorInfo } from '../errors/tool-error.js'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import type { CallOutcome, ToolContext, ToolResult } from './call.js'

/** A validated call as policy sees it. Frozen: no listener can change what will run. */
export interface CallInfo {
  readonly id: string
  readonly name: string
  readonly arguments: Readonly<JsonObject>
  readonly agentId: string | undefined
  readonly correlationId: string
  /** The call a sub-call came from. */
  readonly parentId: string | undefined
}

/** What a `tools/pre-execute` listener sees: the call, its definition and the call's abort signal. */
export interface PreExecuteEvent {
  readonly call: CallInfo
  readonly definition: AnyToolDefinition
  readonly signal: AbortSignal
}

/** `error` rides beside the model-facing `reason`: its code and `userMessage` reach logs and hosts, not the model. */
export type PreExecuteDecision =
  | { readonly action: 'allow' }
  | {
      readonly action: 'deny'
      readonly reason: string
      readonly error?: { readonly code?: ToolErrorInfo['code']; readonly userMessage?: string }
    }
  | { readonly action: 'ask'; readonly reason: string }

/** Looks at a call before its body runs and may allow, deny or ask about it; `undefined` leaves it to the others. */
export type PreExecuteListener = (
  event: PreExecuteEvent,
) => PreExecuteDecision | undefined | Promise<PreExecuteDecision | undefined>

/** Synchronous owner policy after the listeners: a returned reason denies. */
export type ToolGuard = (call: CallInfo, definition: AnyToolDefinition) => string | undefined

/** What an execute wrapper sees: the body's execution plus the call it belongs to. */
export interface WrappedExecution extends ToolExecution {
  readonly call: CallInfo
  readonly definition: AnyToolDefinition
}

/** Runs the rest of the onion. Only `signal` may be replaced; the caller's signal is fused back in. */
export type NextExecute = (override?: { readonly signal?: AbortSignal }) => Promise<CallOutcome>

/** Wraps a tool body (`tools/execute`): runs it through `next` at most once, or settles the call itself. */
export type ExecuteWrapper = (exec: WrappedExecution, next: NextExecute) => CallOutcome | Promise<CallOutcome>

/** What a `tools/post-execute` listener sees: the call, its definition and the outcome so far. */
export interface PostExecuteEvent {
  readonly call: CallInfo
  readonly definition: AnyToolDefinition
  /** The outcome so far, including earlier post-execute replacements. */
  readonly outcome: CallOutcome
}

/**
 * `content`/`value` replace a successful result's; `block` turns the call into a `BLOCKED` error whose message is
 * the feedback the model reads; `contexts` are appended in listener order.
 */
export interface PostExecuteDecision {
  readonly content?: readonly ContentPart[]
  readonly value?: JsonValue
  readonly block?: string
  readonly contexts?: readonly ToolContext[]
}

/** Looks at a call's outcome after its body ran and may replace it; `undefined` keeps it. */
export type PostExecuteListener = (
  event: PostExecuteEvent,
) => PostExecuteDecision | undefined | Promise<PostExecuteDecision | undefined>

/** What a `tools/result` observer sees: the finished result, the agent scope and the parent call. */
export interface ResultEvent {
  readonly result: ToolResult
  readonly agentId: string | undefined
  readonly parentId: string | undefined
  /** The call as validated, the object the earlier events showed; undefined when it was refused before that. */
  readonly call: CallInfo | undefined
}

/** Is told every finished result (`tools/result`); what it returns or throws does not change the call. */
export type ResultObserver = (event: ResultEvent) => unknown

/** How an approval ended: the approver's answer, a throw (`failed`) or the caller cancelling while it waited. */
export type ApprovalVerdict = 'approved' | 'denied' | 'failed' | 'aborted'

/** What a `tools/approval` observer sees once the approver answered a call that asked. */
export interface ApprovalEvent {
  readonly call: CallInfo
  readonly reasons: readonly string[]
  readonly verdict: ApprovalVerdict
  /** The approver's reason for a denial, when it gave one. */
  readonly reason: string | undefined
  /** Who decided, as the approver named them (`decidedBy`). */
  readonly decidedBy: string | undefined
  /** How long the call waited for the answer. */
  readonly waitedMs: number
}

/** Is told each approval's outcome (`tools/approval`); what it returns or throws does not change the call. */
export type ApprovalObserver = (event: ApprovalEvent) => unknown

/** The listener each pipeline event takes, by event name. */
export interface ToolEventListeners {
  'tools/pre-execute': PreExecuteListener
  'tools/execute': ExecuteWrapper
  'tools/post-execute': PostExecuteListener
  'tools/approval': ApprovalObserver
  'tools/result': ResultObserver
}

/** The pipeline events a listener can be registered for. */
export type ToolEventName = keyof ToolEventListeners

/** Where a listener runs among the others registered for the same event. */
export interface ListenerOptions {
  /** Lower runs first (outermost for wrappers); ties keep registration order. Default 0. */
  readonly order?: number
}

/** What an approver decides on: the call, its definition, every reason given for asking, and the call's signal. */
export interface ApprovalRequest {
  readonly call: CallInfo
  readonly definition: AnyToolDefinition
  /** Every reason a listener gave for asking, in order. */
  readonly reasons: readonly string[]
  readonly signal: AbortSignal
}

/**
 * `true` approves; `false` or `{ approved: false, reason }` denies, the reason being what the model reads;
 * `decidedBy` names who decided, for logs and hosts.
 */
export type ApprovalDecision =
  | boolean
  | {
      readonly approved: boolean
      readonly reason?: string
      readonly userMessage?: string
      readonly decidedBy?: string
    }

/** Decides the calls a listener asked about, for instance by asking a person. */
export type Approver = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>
