import type { ToolErrorInfo } from 'qilin-tools/internal/errors/tool-error.js'
import type { JsonObject, JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { JsonSchemaNode, JsonSchemaObject } from 'qilin-tools/internal/json-schema/node.js'
import type { CallFailure, CallSuccess, ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import type { ToolPresenter } from 'qilin-tools/internal/pipeline/tool-presenter.js'
import type { Disposer } from 'qilin-tools/internal/registry/disposer.js'
import type { OmittedTool, PromptSection, ToolSchema } from 'qilin-tools/internal/registry/tool-schema.js'

/**
 * The seam between code mode and a language runtime (`qilin-tools/ptc/node`, `qilin-tools/ptc/python`). Code mode
 * (`code-mode.ts`) builds `run_code` and runs each program's sub-calls through the pipeline, which owns their
 * scheduling, policy and logging; the runtime owns the SDK text, the sandbox and the rendering of the outer result.
 */
export type PtcLanguage = 'typescript' | 'python'

/** The one transport tool of code mode. The name is reserved in every runtime that has a PTC runtime. */
export const RUN_CODE_TOOL_NAME = 'run_code'

/** One tool as a program sees it. */
export interface PtcToolView {
  readonly name: string
  readonly description: string
  readonly parameters: JsonSchemaObject
  readonly output?: JsonSchemaNode
}

/**
 * How a code-mode runtime shows the visible tools: the `run_code` schema, its prompt sections and any tools left out.
 */
export interface PtcPresentation {
  /** The `run_code` transport schema; states the default and maximum `timeoutMs`. */
  readonly runCode: ToolSchema
  /** `tools:sdk` (order 5000, interpolate false) and, under `ptc` alone, `tools:ptc-only` before it. */
  readonly sections: readonly PromptSection[]
  /** Tools the SDK leaves out for going over the render budget, each with its reason; absent when none is. */
  readonly omitted?: readonly OmittedTool[]
}

/** A tool the SDK leaves to search: at most its name and the first sentence of its description are shown. */
export interface PtcIndexEntry {
  readonly name: string
  readonly description: string
}

/** Under tool search, the tools a presentation indexes instead of declaring, sorted by name. */
export interface PtcToolIndex {
  readonly tools: readonly PtcIndexEntry[]
  /** How many of `tools` each server prefix (`github__`, or empty) holds, sorted by prefix: the coarsest index. */
  readonly prefixes: () => readonly { readonly prefix: string; readonly count: number }[]
}

/** Whether a program runs in the default sandbox or with the escalated permissions an approver granted. */
export type SandboxPermissions = 'use_default' | 'require_escalated'

/** One program for a code-mode runtime to run, with its deadline, permissions, signal and call id. */
export interface PtcRunRequest {
  readonly code: string
  /** As the model asked; the runtime applies its default and cap. */
  readonly timeoutMs: number | undefined
  /** Already approved when `require_escalated`. */
  readonly permissions: SandboxPermissions
  readonly signal: AbortSignal
  /** The outer `run_code` call id; sub-call ids derive from it. */
  readonly callId: string
  /** The names the program may call: exactly the SDK's bindings. */
  readonly toolNames: readonly string[]
  /**
   * Runs one sub-call through the whole pipeline in the caller's scope. Never rejects. `signal`, when given, is
   * the runtime's own: aborting it cancels the sub-call (the runtime's deadline ends its calls with the program).
   */
  callTool(name: string, args: JsonValue, signal?: AbortSignal): Promise<ToolResult>
  /**
   * Sees each complete line the program prints, in order, as it is printed and only while the output is within its
   * limit; what it throws is dropped. @default none
   */
  readonly onOutput?: (line: string) => void
}

/** What a run reports about itself: how many tools it called and the result bytes it kept out of the conversation. */
export interface PtcRunMetadata extends JsonObject {
  subCalls: number
  /** Bytes of sub-call results that stayed inside the program instead of entering the conversation. */
  bytesKeptOut: number
}

/** A program's outcome is the `run_code` call's outcome, and always carries its run metadata. */
export type PtcRunOutcome = PtcRunSuccess | PtcRunFailure

/** A program that finished: its value and content, with the run's metadata. */
export interface PtcRunSuccess extends CallSuccess {
  readonly metadata: PtcRunMetadata
}

/** A program that failed, with its `CODE_RUN_FAILED` error and the run's metadata. */
export interface PtcRunFailure extends CallFailure {
  /** `CODE_RUN_FAILED` with `code run failed (<kind>): …` and any captured output in `message`. */
  readonly error: ToolErrorInfo
  readonly metadata: PtcRunMetadata
}

/**
 * What a language runtime implements: it presents the visible tools as an SDK and runs the programs the model writes
 * against it. `codeModeRuntime` turns it into a `PtcRuntime`.
 */
export interface PtcRuntimeParts {
  readonly language: PtcLanguage
  /** Pure and deterministic for the same visible set, whatever the registration order. */
  present(tools: readonly PtcToolView[], mode: 'ptc' | 'both', index?: PtcToolIndex): PtcPresentation
  /** The declarations of these tools alone, as a program's search shows them; search answers with schemas without it. */
  declare?(tools: readonly PtcToolView[]): string
  /** Runs one program. Resolves, never rejects; honours `signal` and its own deadline. */
  run(request: PtcRunRequest): Promise<PtcRunOutcome>
  /** Frees pooled sandboxes or processes. */
  close(): Promise<void>
}

/**
 * A code-mode runtime, as `createToolRuntime({ ptcRuntime })` takes it: the language runtime's parts plus the tool
 * presenter that builds `run_code` from them (`codeModeRuntime`).
 */
export interface PtcRuntime extends PtcRuntimeParts, ToolPresenter {
  /**
   * Calls `listener` with each complete line a `run_code` program prints, as it prints it (a host's live view; the
   * model still gets the whole output with the result). What the listener throws is dropped.
   */
  onProgramOutput(listener: (line: ProgramOutputLine) => void): Disposer
}

/** One line a running program printed, with the `run_code` call it belongs to. */
export interface ProgramOutputLine {
  /** The `run_code` call's id. */
  readonly callId: string
  readonly agentId: string | undefined
  readonly line: string
}
