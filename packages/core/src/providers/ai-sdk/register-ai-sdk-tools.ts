import type { ToolSet } from 'ai'
import type { ToolRuntime } from '../../pipeline/tool-runtime.js'
import { createDisposer, type Disposer } from '../../registry/disposer.js'
import { fromAISDKTools, type ImportedAISDKTools } from './from-ai-sdk-tools.js'

/**
 * Registers AI SDK tools in a runtime scope (see `fromAISDKTools`). The disposer removes all of them; `skipped`
 * says which could not run here. A name already taken in the scope throws, as `register` does, after undoing
 * the registrations made so far.
 */
export async function registerAISDKTools(
  runtime: ToolRuntime,
  tools: ToolSet,
): Promise<Disposer & Pick<ImportedAISDKTools, 'skipped'>> {
  const { definitions, skipped } = await fromAISDKTools(tools)
  const registrations: Disposer[] = []
  const undo = () => {
    for (const registration of registrations.reverse()) registration.dispose()
  }
  try {
    for (const definition of definitions) registrations.push(runtime.register(definition))
  } catch (error) {
    undo()
    throw error
  }
  return Object.assign(createDisposer(undo), { skipped })
}
