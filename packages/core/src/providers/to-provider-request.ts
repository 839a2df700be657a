import type { ToolRuntime } from '../pipeline/tool-runtime.js'
import { type ProviderName, type ProviderRequests, projectionOf, turnFormatOf } from './turn-formats.js'

/** What `toProviderRequest` puts before the tool layer's prompt sections. */
export interface ProviderRequestOptions {
  /** The host's own system text, placed before the prompt sections. @default none */
  readonly instructions?: string
}

/**
 * The request fields the tool layer owns, in the provider's shape: the system text (`instructions`, then
 * `runtime.prompt()` sections by `order`, blank-line separated) and the prompt's tools projected for the provider.
 * Chat Completions gets a system message (`messages`), Responses `instructions`, Anthropic `system`, Gemini
 * `systemInstruction`; each with `tools`. A field with nothing to say is left out (the APIs refuse an empty tool
 * list). Spread it into the SDK call; `runToolTurn` maps the calls back through the same projection.
 */
export function toProviderRequest<const Provider extends ProviderName>(
  runtime: Pick<ToolRuntime, 'prompt'>,
  provider: Provider,
  options: ProviderRequestOptions = {},
): ProviderRequests[Provider] {
  const format = turnFormatOf(provider, 'toProviderRequest')
  const prompt = runtime.prompt()
  const sections = [...prompt.sections].sort((left, right) => left.order - right.order).map((section) => section.text)
  const system = [options.instructions ?? '', ...sections].filter((text) => text !== '').join('\n\n')
  return format.request(system, projectionOf(format, prompt.tools).tools) as ProviderRequests[Provider]
}
