import type { JsonSchemaObject } from '../json-schema/node.js'

/** What a model is shown of one tool. Nothing executable or host-only is on it. */
export interface ToolSchema {
  readonly name: string
  readonly description: string
  readonly parameters: JsonSchemaObject
}

/** A block of system-prompt text contributed by the tool layer. */
export interface PromptSection {
  readonly id: string
  /** Lower comes first. */
  readonly order: number
  readonly text: string
  /** False: the host must not substitute `{{…}}` prompt variables in this text. */
  readonly interpolate: boolean
}

/** How visible tools reach the model: as native tools, through `run_code` alone, or both. */
export type PresentationMode = 'native' | 'ptc' | 'both'

/** A tool the prompt leaves out, and why: an oversized or hostile schema costs that tool alone. */
export interface OmittedTool {
  readonly name: string
  readonly reason: string
}

/** Everything the model sees from the tool layer for one scope. */
export interface ToolPrompt {
  readonly tools: readonly ToolSchema[]
  readonly sections: readonly PromptSection[]
  /** Tools visible in the scope that the prompt leaves out (sorted by name); absent when none is. */
  readonly omitted?: readonly OmittedTool[]
}
