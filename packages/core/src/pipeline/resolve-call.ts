import { ToolErrorCode } from '../errors/error-codes.js'
import type { ValidationIssue } from '../registry/registry-entry.js'
import type { CallOutcome, ToolCall } from './call.js'
import { failure } from './call-outcome.js'
import type { CallRun, CallTarget, PipelineScope, PreparedCall } from './call-run.js'
import { mintCorrelationId } from './correlation-id.js'
import { failureMessages } from './failure-messages.js'
import { isJsonObject } from './frozen-json.js'
import { nearestNames } from './nearest-names.js'
import { emptyArguments, readArguments, Unreadable } from './read-arguments.js'
import { recordStarted } from './session-recording.js'

/**
 * Stage 1: log the call as it arrived, find the tool as the caller's scope and presentation see it, parse and
 * validate the arguments, freeze them and mint the correlation token. Returns the failure, or undefined when
 * `run.target` and `run.info` are set.
 */
export function resolveCall(run: CallRun): CallOutcome | undefined {
  const { call, prepared } = run
  // Unscheduled calls (`execute`) are found and read here, without a PreparedCall of their own.
  const args = prepared === undefined ? readArguments(call.arguments) : prepared.args
  const readable = !(args instanceof Unreadable)
  if (run.scope.core.sessionLog !== undefined && run.decided === undefined) {
    recordStarted(run, readable ? args : typeof call.arguments === 'string' ? call.arguments : null)
  }
  const target = prepared === undefined ? findTarget(run.scope, call.name) : prepared.target
  if (target === undefined) {
    const callable = callableNames(run.scope, run.parentId !== undefined)
    const nearest = nearestNames(call.name, callable, maxSuggestedDistance(call.name), 3)
    return failure(ToolErrorCode.UNKNOWN_TOOL, failureMessages.unknownTool(call.name, nearest))
  }
  if (prepared?.refusal !== undefined) return prepared.refusal
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

/** A model's call: found as the scope's presentation shows it, its arguments read as they came. */
export function prepareCall(scope: PipelineScope, call: ToolCall): PreparedCall {
  return { target: findTarget(scope, call.name), args: readArguments(call.arguments) }
}

/**
 * A sub-call: found as the tool it was offered as, its arguments read as the value they are. It runs only while the
 * scope still resolves the name to that tool, or to one with the same schemas: a tool replaced by another since is
 * never run against schemas the caller did not see.
 */
export function prepareSubCall(
  scope: PipelineScope,
  name: string,
  raw: unknown,
  binding: CallTarget | undefined,
): PreparedCall {
  const args = readArguments(raw, true)
  // Search's own tools are the runtime's, never registered, so no binding holds them and none can change.
  const search = binding === undefined ? scope.core.search?.find(scope, name, true) : undefined
  if (search !== undefined) return { target: search, args }
  const live = binding === undefined ? undefined : scope.core.registry.resolve(scope.layer, name)
  if (live === undefined || live === binding || sameSchemas(live, binding!)) return { target: live, args }
  return { target: live, args, refusal: failure(ToolErrorCode.TOOL_CHANGED, failureMessages.toolChanged(name)) }
}

function sameSchemas(live: CallTarget, offered: CallTarget): boolean {
  const output = (target: CallTarget) => target.definition.output?.schema ?? null
  return (
    JSON.stringify(live.definition.parameters) === JSON.stringify(offered.definition.parameters) &&
    JSON.stringify(output(live)) === JSON.stringify(output(offered))
  )
}

/** Under a composed presentation alone (not `both`) only the presenter's tools are callable by the model; under `both` the registered ones too. */
export function findTarget(scope: PipelineScope, name: string): CallTarget | undefined {
  const { core, layer } = scope
  const mode = core.registry.presentation(layer) ?? core.defaultMode
  const search = mode === 'ptc' ? undefined : core.search?.find(scope, name, false)
  if (search !== undefined) return search
  if (mode === 'native') return core.registry.resolve(layer, name)
  if (core.presenter?.reservedNames.includes(name) === true) return core.presented(scope, mode).targets.get(name)
  return mode === 'both' ? core.registry.resolve(layer, name) : undefined
}

/** The names a call could resolve in this scope: what an unknown name may be suggested from, hidden ones never. */
function callableNames(scope: PipelineScope, subCall: boolean): readonly string[] {
  const { core, layer } = scope
  const mode = subCall ? 'native' : (core.registry.presentation(layer) ?? core.defaultMode)
  const visible = () => core.registry.visible(layer).entries.map((entry) => entry.name)
  const presented = core.presenter?.reservedNames ?? []
  if (mode === 'ptc') return presented
  const search = core.search?.names(scope, subCall) ?? []
  return mode === 'both' ? [...presented, ...search, ...visible()] : [...search, ...visible()]
}

/** A third of the name, at least one edit: `get_wether` may be 3 edits from a suggestion, `ls` 1. */
function maxSuggestedDistance(name: string): number {
  return Math.max(1, Math.floor(Math.min(name.length, 64) / 3))
}

/** The validator's messages already say where (`at /b: …`), so they are joined as they are. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => issue.message).join('; ')
}
