import type { ToolRuntime } from '../pipeline/tool-runtime.js'
import type { PtcToolView } from '../ptc/ptc-port.js'
import type { PresentationMode } from '../registry/tool-schema.js'
import type { TokenCounter } from './token-count.js'

export interface ViewPart {
  readonly kind: 'tool' | 'section'
  /** The tool name or the section id. */
  readonly name: string
  /** For a tool, its schema as JSON text (what a provider sends); for a section, its text. */
  readonly text: string
  readonly tokens: number
}

export interface ModeView {
  readonly mode: PresentationMode
  readonly parts: readonly ViewPart[]
  readonly tokens: number
}

/** What the model sees under one mode, part by part, with o200k token counts. */
export function modelView(runtime: ToolRuntime, mode: PresentationMode, countTokens: TokenCounter): ModeView {
  using scope = runtime.agent(`qilin-tools sdk ${mode}`)
  using _presentation = scope.presentAs(mode)
  const prompt = scope.prompt()
  const parts: ViewPart[] = [
    ...prompt.tools.map((tool) => part('tool', tool.name, JSON.stringify(tool), countTokens)),
    ...[...prompt.sections]
      .sort((left, right) => left.order - right.order)
      .map((section) => part('section', section.id, section.text, countTokens)),
  ]
  return { mode, parts, tokens: parts.reduce((total, item) => total + item.tokens, 0) }
}

/** The tools as a program sees them, for the SDK renderers. */
export function ptcToolViews(runtime: ToolRuntime): PtcToolView[] {
  return runtime.schemas().map((schema) => {
    const output = runtime.get(schema.name)?.output?.schema
    return output === undefined ? { ...schema } : { ...schema, output }
  })
}

function part(kind: ViewPart['kind'], name: string, text: string, countTokens: TokenCounter): ViewPart {
  return { kind, name, text, tokens: countTokens(text) }
}
