import type { AnyToolDefinition } from '../definition/tool-definition.js'
import type { Disposer } from '../registry/disposer.js'
import type { RegistryEntry } from '../registry/registry-entry.js'
import type { OmittedTool, PresentationMode, PromptSection, ToolSchema } from '../registry/tool-schema.js'
import type { ToolResult } from './call.js'
import type { ToolRuntime } from './tool-runtime.js'

/** A presentation other than one schema per tool. */
export type ComposedMode = Exclude<PresentationMode, 'native'>

/**
 * Shows a scope's visible tools to the model through tools of its own, for the
 * presentation modes other than `native`. The pipeline runs those tools like any other; the presenter builds them.
 */
export interface ToolPresenter {
  /** The names of the tools a presentation adds. No registration may take one, and only they are looked up here. */
  readonly reservedNames: readonly string[]
  /** Installs what the presentation needs on a new runtime (its listeners); returns what removes it again. */
  install(runtime: ToolRuntime): Disposer
  /**
   * The tools and prompt sections for one visible set (sorted by name) under `mode`; asked again only when the set
   * changed. `subCalls` runs calls made by those tools in the scope the set belongs to. `search` is given while
   * tool search is active in the scope: then only its `listed` tools are to be presented in full.
   */
  presentTools(
    visible: readonly RegistryEntry[],
    mode: ComposedMode,
    subCalls: SubCalls,
    search?: ToolSearchSplit,
  ): Presentation
  /**
   * These tools' declarations alone, in the presentation's own terms, as a search made by one of its tools answers
   * with them. Absent when the presenter has none: such a search answers with schemas, and offers no `describe_tool`.
   */
  declareTools?(entries: readonly RegistryEntry[]): string
}

/** How tool search splits a visible set: the tools listed in full, and those only a search shows. */
export interface ToolSearchSplit {
  /** Sorted by name: the tools that declare `deferLoading: false`. */
  readonly listed: readonly RegistryEntry[]
  /** Sorted by name: the tools that wait to be found. */
  readonly deferred: readonly RegistryEntry[]
  /** The schemas of `deferred`, in the same order. */
  readonly deferredSchemas: readonly ToolSchema[]
  /** How many of `deferred` each server prefix (`github__`, or empty) holds, sorted by prefix; counted on first use. */
  prefixes(): readonly { readonly prefix: string; readonly count: number }[]
}

/** What a presenter shows for one visible set. */
export interface Presentation {
  /** Ordinary definitions the model may call; each name is one of `reservedNames`. */
  readonly tools: readonly AnyToolDefinition[]
  readonly sections: readonly PromptSection[]
  /** Visible tools the presentation leaves out, each with its reason; absent when none is. */
  readonly omitted?: readonly OmittedTool[]
}

/** Where a sub-call comes from: the call that made it, and whether that call's escalation was approved. */
export interface SubCallOrigin {
  readonly parentId: string
  /** The sub-calls see `exec.escalated`. */
  readonly escalated: boolean
}

/** One call a presented tool makes on the model's behalf. */
export interface SubCall {
  readonly id: string
  readonly name: string
  /** The arguments as a value (never JSON text to parse). */
  readonly arguments: unknown
  /**
   * The entry the tool was offered as when the presentation was made: the call runs only while the scope still
   * resolves the name to that entry, or to one with the same schemas. Undefined for a name that was not offered.
   */
  readonly binding: RegistryEntry | undefined
  /** Cancels this call alone (a runtime's own deadline), beside the run's signal. */
  readonly signal?: AbortSignal
}

/** Runs sub-calls through the whole pipeline in one scope. */
export interface SubCalls {
  /** One run's calls, on a scheduler of their own (`maxParallelSubCalls`), each cancelled by `signal`. Never rejects. */
  open(origin: SubCallOrigin, signal: AbortSignal): (call: SubCall) => Promise<ToolResult>
}
