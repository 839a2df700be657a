import { ToolErrorCode } from '../errors/error-codes.js'
import type { ValidationIssue } from '../registry/registry-entry.js'
import type { CallOutcome } from './call.js'
import { failure } from './call-outcome.js'
import type { CallRun, CallTarget, PipelineScope } from './call-run.js'
import { mintCorrelationId } from './correlation-id.js'
import { failureMessages } from './failure-messages.js'
import { isJsonObject } from './frozen-json.js'
import { nearestNames } from './nearest-names.js'
import { RUN_CODE_TOOL_NAME } from './ptc-port.js'
import { emptyArguments, readArguments, Unreadable } from './read-arguments.js'
import { recordStarted } from './session-recording.js'

/**
 * Stage 1: log the call as it arrived, find the tool as the caller's scope and presentation see it, parse and
 * validate the arguments, freeze them and mint the correlation token. Returns the failure, or undefined when
 * `run.target` and `run.info` are set.
 */
export function resolveCall(run: CallRun): CallOutcome | undefined {
  const { call } = run
  const args = readArguments(call.arguments)
  const readable = !(args instanceof Unreadable)
  if (run.scope.core.sessionLog !== undefined) {
    recordStarted(run, readable ? args : typeof call.arguments === 'string' ? call.arguments : null)
  }
  const target = findTarget(run.scope, call.name, run.parentId)
  if (target === undefined) {
    const nearest = nearestNames(call.name, callableNames(run.scope, run.parentId), maxSuggestedDistance(call.name), 3)
    return failure(ToolErrorCode.UNKNOWN_TOOL, failureMessages.unknownTool(call.name, nearest))
  }
  if (!readable) return failure(ToolErrorCode.INVALID_ARGUMENTS, args.message(call.name))
  if (!isJsonObject(args)) return failure(ToolErrorCode.INVALID_ARGUMENTS, failureMessages.notAnObject(call.name))
  const validation = target.parameters.validate(args)
  if (!validation.valid) {
    const detail = formatIssues(validation.issues)
    return failure(
      ToolErrorCode.INVALID_ARGUMENTS,
      args === emptyArguments
        ? failureMessages.emptyArguments(call.name, detail)
        : failureMessages.invalidArguments(call.name, detail),
    )
  }
  const problem = target.check?.(args)
  if (problem !== undefined) {
    return failure(ToolErrorCode.INVALID_ARGUMENTS, failureMessages.invalidArguments(call.name, problem))
  }
  run.target = target
  run.info = Object.freeze({
    id: call.id,
    name: call.name,
    arguments: args,
    agentId: run.scope.agentId,
    correlationId: mintCorrelationId(),
    parentId: run.parentId,
  })
  return undefined
}

/** Under `ptc` alone only `run_code` is callable by the model; a program's sub-calls reach every visible tool but it. */
export function findTarget(scope: PipelineScope, name: string, parentId: string | undefined): CallTarget | undefined {
  const { core, layer } = scope
  const mode = core.registry.presentation(layer) ?? core.defaultMode
  const search = mode === 'ptc' && parentId === undefined ? undefined : core.search?.find(scope, name, parentId)
  if (search !== undefined) return search
  if (parentId !== undefined) return name === RUN_CODE_TOOL_NAME ? undefined : core.registry.resolve(layer, name)
  if (mode === 'native') return core.registry.resolve(layer, name)
  if (name === RUN_CODE_TOOL_NAME) return core.ptc?.runCode(scope, mode)
  return mode === 'both' ? core.registry.resolve(layer, name) : undefined
}

/** The names `findTarget` would resolve in this scope: what an unknown name may be suggested from, hidden ones never. */
function callableNames(scope: PipelineScope, parentId: string | undefined): readonly string[] {
  const { core, layer } = scope
  const mode = parentId === undefined ? (core.registry.presentation(layer) ?? core.defaultMode) : 'native'
  const runCode = parentId === undefined && mode !== 'native' && core.ptc !== undefined ? [RUN_CODE_TOOL_NAME] : []
  if (mode === 'ptc') return runCode
  const search = core.search?.names(scope, parentId) ?? []
  const visible = core.registry.visible(layer).entries.map((entry) => entry.name)
  return parentId === undefined
    ? [...runCode, ...search, ...visible]
    : [...search, ...visible.filter((name) => name !== RUN_CODE_TOOL_NAME)]
}

/** A third of the name, at least one edit: `get_wether` may be 3 edits from a suggestion, `ls` 1. */
function maxSuggestedDistance(name: string): number {
  return Math.max(1, Math.floor(Math.min(name.length, 64) / 3))
}

/** The validator's messages already say where (`at /b: …`), so they are joined as they are. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => issue.message).join('; ')
}
