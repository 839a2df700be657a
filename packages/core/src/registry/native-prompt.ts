import { jsonBytesUpTo } from '../json-schema/json-bytes.js'
import type { OmittedTool, ToolPrompt, ToolSchema } from './tool-schema.js'

/** What the tool schemas of one native prompt may take, as JSON text. */
export interface NativePromptBudget {
  /** Bytes one tool's schema may take; a larger one is left out without being read further. */
  readonly maxToolBytes: number
  /** Bytes all the schemas together may take; past it the largest are left out until the rest fits. */
  readonly maxTotalBytes: number
}

/** The same per-tool and whole-prompt sizes the provider projections and the code-mode SDKs work to. */
export const defaultNativePromptBudget: NativePromptBudget = {
  maxToolBytes: 128 * 1024,
  maxTotalBytes: 1024 * 1024,
}

interface Measured {
  readonly schema: ToolSchema
  /** Undefined once the schema is known to be over `maxToolBytes`. */
  readonly bytes: number | undefined
}

/** Each schema's size, measured once per per-tool limit: a visible set after one more tool re-measures only it. */
const sizes = new WeakMap<ToolSchema, { readonly maxToolBytes: number; readonly bytes: number | undefined }>()

function measure(schema: ToolSchema, maxToolBytes: number): number | undefined {
  const known = sizes.get(schema)
  if (known?.maxToolBytes === maxToolBytes) return known.bytes
  const read = jsonBytesUpTo(schema, maxToolBytes)
  const bytes = read > maxToolBytes ? undefined : read
  sizes.set(schema, { maxToolBytes, bytes })
  return bytes
}

const prompts = new WeakMap<readonly ToolSchema[], { budget: NativePromptBudget; prompt: ToolPrompt }>()

/** `nativePrompt`, once per visible set: a registry hands out the same frozen `schemas` until its tools change. */
export function cachedNativePrompt(schemas: readonly ToolSchema[], budget: NativePromptBudget): ToolPrompt {
  const known = prompts.get(schemas)
  if (known?.budget === budget) return known.prompt
  const prompt = nativePrompt(schemas, budget)
  prompts.set(schemas, { budget, prompt })
  return prompt
}

/**
 * The native prompt for `schemas` (sorted by name) within `budget`: a schema over the per-tool size is left out
 * alone, then, past the total, the largest (ties by name) until the rest fits. Every tool kept is the very schema
 * registered, so the prompt is what it would be had the left-out tools never been registered. Measuring stops just
 * past each limit, so a 15 MB schema costs what reading 128 KB does.
 */
export function nativePrompt(schemas: readonly ToolSchema[], budget: NativePromptBudget): ToolPrompt {
  const measured: Measured[] = schemas.map((schema) => ({ schema, bytes: measure(schema, budget.maxToolBytes) }))
  const omitted: OmittedTool[] = []
  const dropped = new Set<ToolSchema>()
  for (const { schema, bytes } of measured) {
    if (bytes !== undefined) continue
    dropped.add(schema)
    omitted.push({ name: schema.name, reason: `its schema takes more than ${budget.maxToolBytes} bytes` })
  }
  const fitting = measured.filter((entry): entry is Measured & { bytes: number } => entry.bytes !== undefined)
  let total = fitting.reduce((sum, entry) => sum + entry.bytes, 0)
  if (dropped.size === 0 && total <= budget.maxTotalBytes) return { tools: schemas, sections: [] }
  const largestFirst = [...fitting].sort(
    (left, right) => right.bytes - left.bytes || (left.schema.name < right.schema.name ? -1 : 1),
  )
  for (const { schema, bytes } of largestFirst) {
    if (total <= budget.maxTotalBytes) break
    dropped.add(schema)
    total -= bytes
    omitted.push({
      name: schema.name,
      reason: `the tools together would take more than ${budget.maxTotalBytes} bytes; this one is among the largest`,
    })
  }
  if (dropped.size === 0) return { tools: schemas, sections: [] }
  return {
    tools: Object.freeze(schemas.filter((schema) => !dropped.has(schema))),
    sections: [],
    omitted: Object.freeze(
      omitted.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0)),
    ),
  }
}
