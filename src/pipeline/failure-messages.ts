/**
 * The sentences a model reads after `Error: ` when the pipeline itself refuses or stops a call.
 * They are part of what the model sees: change them only with their snapshots.
 */
export const failureMessages = {
  unknownTool: (name: string, nearest: readonly string[]) =>
    nearest.length === 0
      ? `Unknown tool ${quotedName(name)}.`
      : `Unknown tool ${quotedName(name)}. Did you mean ${alternatives(nearest)}?`,
  toolChanged: (name: string) =>
    `The tool ${quotedName(name)} was replaced with different parameters after it was offered to you; read its new description and call it again.`,
  noOutcome: (name: string) => `${name} answered something other than an outcome.`,
  emptyArguments: (name: string, detail: string) =>
    `Invalid arguments for ${name}: the arguments were empty; ${detail}`,
  notAnObject: (name: string) => `Invalid arguments for ${name}: expected a JSON object.`,
  notJson: (name: string) => `Invalid arguments for ${name}: arguments must be lossless JSON.`,
  invalidArguments: (name: string, detail: string) => `Invalid arguments for ${name}: ${detail}`,
  parametersFailed: (name: string, detail: string) => `The parameter schema of ${name} failed: ${detail}`,
  parametersTimedOut: (name: string, timeoutMs: number) =>
    `The parameter schema of ${name} did not finish checking the arguments within ${timeoutMs} ms.`,
  deniedByDefault: (name: string) => `The call to ${name} was denied.`,
  noApprover: (name: string) => `The call to ${name} needs approval, but no approver is configured.`,
  notApproved: (name: string) => `The call to ${name} was not approved.`,
  approverFailed: (name: string, detail: string) => `Approval of the call to ${name} failed: ${detail}`,
  abortedBeforeDispatch: (name: string) => `The call to ${name} was cancelled before it started.`,
  aborted: (name: string) => `The call to ${name} was cancelled.`,
  timedOut: (name: string, timeoutMs: number) => `${name} did not finish within ${timeoutMs} ms.`,
  invalidOutput: (name: string, detail: string) =>
    `${name} returned a value that does not match its output schema: ${detail}`,
  renderFailed: (name: string, detail: string) => `${name} could not render its result: ${detail}`,
  finalizeFailed: (name: string, detail: string) => `${name} could not finalize its result: ${detail}`,
  wrapperFailed: (detail: string) => `A tools/execute wrapper failed: ${detail}`,
  nextTwice: () => 'A tools/execute wrapper called next() more than once.',
  wrapperNoOutcome: () => 'A tools/execute wrapper returned no outcome.',
  listenerFailed: (event: string, detail: string) => `A ${event} listener failed: ${detail}`,
  listenerInvalidDecision: (event: string) => `A ${event} listener returned an invalid decision.`,
  guardFailed: (detail: string) => `A guard failed: ${detail}`,
  guardNotSynchronous: () => 'A guard returned something other than a reason or nothing; guards are synchronous.',
  internal: (detail: string) => `Internal error in the tool pipeline: ${detail}`,
} as const

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
function alternatives(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`)
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}

/** Tool names are at most 64 characters, so a longer unknown name is quoted only in part, with its length. */
function quotedName(name: string): string {
  return name.length <= 80 ? `"${name}"` : `"${name.slice(0, 80)}…" (${name.length} characters)`
}
