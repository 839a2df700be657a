import type { AnyToolDefinition, ToolExecution } from 'qilin-tools/internal/definition/tool-definition.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import type { JsonObject, JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { CallOutcome } from 'qilin-tools/internal/pipeline/call.js'
import { failure, failureFromThrown } from 'qilin-tools/internal/pipeline/call-outcome.js'
import { failureMessages } from 'qilin-tools/internal/pipeline/failure-messages.js'
import type { PreExecuteDecision, PreExecuteEvent } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import type { Presentation, SubCalls } from 'qilin-tools/internal/pipeline/tool-presenter.js'
import type { ToolRuntime } from 'qilin-tools/internal/pipeline/tool-runtime.js'
import { createDisposer, type Disposer } from 'qilin-tools/internal/registry/disposer.js'
import type { RegistryEntry } from 'qilin-tools/internal/registry/registry-entry.js'
import type { ToolSchema } from 'qilin-tools/internal/registry/tool-schema.js'
import {
  type PtcRuntime,
  type PtcRuntimeParts,
  type PtcToolView,
  RUN_CODE_TOOL_NAME,
  type SandboxPermissions,
} from './ptc-port.js'

const reservedNames = Object.freeze([RUN_CODE_TOOL_NAME])

/**
 * Code mode on top of the pipeline: a language runtime's parts become a `PtcRuntime`, whose presenter builds an
 * ordinary `run_code` definition per visible set and whose escalation rule is a `tools/pre-execute` listener it
 * installs on each tool runtime (removed again by `close`).
 */
export function codeModeRuntime<Parts extends PtcRuntimeParts>(parts: Parts): NoInfer<Parts> & PtcRuntime {
  const programs = new WeakSet<AnyToolDefinition>()
  const installed = new Set<Disposer>()
  const state = { closed: false }
  const runtime: Parts & PtcRuntime = {
    ...parts,
    reservedNames,
    install(tools: ToolRuntime): Disposer {
      const listener = tools.on('tools/pre-execute', (event) => escalation(programs, event), {
        order: Number.MAX_VALUE,
      })
      const disposer = createDisposer(() => {
        installed.delete(disposer)
        listener.dispose()
      })
      installed.add(disposer)
      return disposer
    },
    presentTools(visible, mode, subCalls): Presentation {
      const views: PtcToolView[] = visible.map((entry) => ({
        name: entry.name,
        description: entry.definition.description,
        parameters: entry.definition.parameters,
        ...(entry.definition.output === undefined ? {} : { output: entry.definition.output.schema }),
      }))
      const presentation = runtime.present(Object.freeze(views), mode)
      const definition = runCode(presentation.runCode, runtime, state, visible, subCalls)
      programs.add(definition)
      return {
        tools: [definition],
        sections: presentation.sections,
        ...(presentation.omitted === undefined ? {} : { omitted: presentation.omitted }),
      }
    },
    close() {
      state.closed = true
      for (const disposer of [...installed]) disposer.dispose()
      return parts.close()
    },
  }
  return runtime
}

/** `run_code` for one visible set: each SDK binding is the entry the tool was when the SDK was rendered. */
function runCode(
  schema: ToolSchema,
  runtime: PtcRuntimeParts,
  state: { readonly closed: boolean },
  visible: readonly RegistryEntry[],
  subCalls: SubCalls,
): AnyToolDefinition {
  const bindings = new Map(visible.map((entry) => [entry.name, entry]))
  const toolNames = Object.freeze(visible.map((entry) => entry.name))
  return Object.freeze({
    name: schema.name,
    description: schema.description,
    parameters: schema.parameters,
    ownsDeadline: true,
    returnsOutcome: true,
    // The program's output answers to the code-mode limits (maxResultBytes among them), not the native budget.
    maxResultBytes: Number.POSITIVE_INFINITY,
    // Closed, the runtime no longer asks about escalation, so it runs nothing more.
    execute: (args: JsonObject, exec: ToolExecution) =>
      state.closed
        ? failure(ToolErrorCode.CODE_RUN_FAILED, 'code run failed (closed): the code-mode runtime was closed')
        : runProgram(runtime, subCalls, bindings, toolNames, args, exec),
  })
}

/** Escalation asks the approver, after every other listener, and needs a justification to show it. */
function escalation(programs: WeakSet<AnyToolDefinition>, event: PreExecuteEvent): PreExecuteDecision | undefined {
  if (!programs.has(event.definition)) return undefined
  const args = event.call.arguments
  if (args.sandbox_permissions !== 'require_escalated') return undefined
  if (!hasText(args.justification)) {
    const problem = 'justification must be a non-empty string when sandbox_permissions is "require_escalated"'
    return {
      action: 'deny',
      reason: failureMessages.invalidArguments(event.call.name, problem),
      error: { code: ToolErrorCode.INVALID_ARGUMENTS },
    }
  }
  return { action: 'ask', reason: `The program asks for escalated sandbox permissions: ${String(args.justification)}` }
}

function hasText(value: JsonValue | undefined): boolean {
  return typeof value === 'string' && value.trim().length > 0
}

async function runProgram(
  runtime: PtcRuntimeParts,
  subCalls: SubCalls,
  bindings: ReadonlyMap<string, RegistryEntry>,
  toolNames: readonly string[],
  args: JsonObject,
  exec: ToolExecution,
): Promise<CallOutcome> {
  const parentId = exec.callId
  // Sub-calls still queued or running when the program ends (deadline, kill, or it simply returned) are cancelled:
  // nothing may keep acting, or keep an approval prompt open, for a program that is gone.
  const programEnded = new AbortController()
  // Only an approved run gets here: escalation always asks, and without approval the call is never dispatched.
  const call = subCalls.open(
    { parentId, escalated: args.sandbox_permissions === 'require_escalated' },
    AbortSignal.any([exec.signal, programEnded.signal]),
  )
  let count = 0
  const callTool = (name: string, toolArguments: JsonValue, signal?: AbortSignal) => {
    count++
    const binding = typeof name === 'string' ? bindings.get(name) : undefined
    const id = `${parentId}:ptc:${count}`
    return call({
      id,
      name: String(name),
      arguments: toolArguments,
      binding,
      ...(signal === undefined ? {} : { signal }),
    })
  }
  try {
    return await runtime.run({
      code: String(args.code),
      timeoutMs: typeof args.timeoutMs === 'number' ? args.timeoutMs : undefined,
      permissions: (args.sandbox_permissions as SandboxPermissions | undefined) ?? 'use_default',
      signal: exec.signal,
      callId: parentId,
      toolNames,
      callTool,
    })
  } catch (thrown) {
    return failureFromThrown(thrown, ToolErrorCode.CODE_RUN_FAILED)
  } finally {
    programEnded.abort(new Error('the run_code program ended before this call settled'))
  }
}
