import type { ToolRuntime } from '../../pipeline/tool-runtime.js'

/**
 * Uses an agent's view for one step and lets it go; a call it started settles all the same. Adapters take an agent
 * id rather than a view so that the tools they build never keep the agent alive.
 */
export function inScope<Value>(
  runtime: ToolRuntime,
  scope: string | undefined,
  use: (view: ToolRuntime) => Value,
): Value {
  if (scope === undefined) return use(runtime)
  using view = runtime.agent(scope)
  return use(view)
}
