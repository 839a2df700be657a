import { asSchema, type Tool, type ToolSet } from 'ai'
import { defineTool } from '../../definition/define-tool.js'
import type { AnyToolDefinition } from '../../definition/tool-definition.js'
import type { JsonValue } from '../../json-schema/json-value.js'
import type { JsonSchemaObject } from '../../json-schema/node.js'
import { jsonSchema as rawSchema } from '../../schema/json-schema-spec.js'
import { OPENAI_NAME_RULE } from '../openai/openai-rules.js'
import { mapToolNames } from '../tool-names.js'

type AISDKTool = ToolSet[string]

/** AI SDK tools as our definitions, and the tools that could not be taken over, with why. */
export interface ImportedAISDKTools {
  /** Ready for `runtime.register`, in the tool set's order. */
  readonly definitions: AnyToolDefinition[]
  /** Tools that cannot run through our pipeline, with why: provider-executed, without `execute`, or not object-rooted. */
  readonly skipped: { readonly name: string; readonly reason: string }[]
}

/**
 * Vercel AI SDK tools as our tool definitions. The input schema is the AI SDK's own JSON Schema export
 * (`asSchema(inputSchema).jsonSchema`), which our validator then enforces; the AI SDK schema's `validate`
 * (zod refinements, transforms) still runs inside `execute`. Execution gets the call id and abort signal.
 * A key that is not a valid tool name is renamed (`_` for invalid characters, a hash suffix when too long).
 */
export async function fromAISDKTools(tools: ToolSet): Promise<ImportedAISDKTools> {
  const entries = Object.entries(tools)
  const names = [
    ...mapToolNames(
      entries.map(([name]) => name),
      OPENAI_NAME_RULE,
    ).keys(),
  ]
  const definitions: AnyToolDefinition[] = []
  const skipped: ImportedAISDKTools['skipped'] = []
  for (const [index, [key, candidate]] of entries.entries()) {
    const reason = unsupported(candidate)
    if (reason !== undefined) {
      skipped.push({ name: key, reason })
      continue
    }
    const schema = asSchema(candidate.inputSchema)
    const parameters = (await schema.jsonSchema) as unknown as JsonSchemaObject
    if (parameters.type !== 'object') {
      skipped.push({ name: key, reason: 'its input schema is not an object' })
      continue
    }
    const execute = candidate.execute as NonNullable<Tool['execute']>
    definitions.push(
      defineTool({
        name: names[index] ?? key,
        description: describe(candidate, key),
        parameters: rawSchema(parameters),
        execute: async (args, exec) => {
          const validated =
            schema.validate === undefined ? { success: true as const, value: args } : await schema.validate(args)
          if (!validated.success) throw validated.error
          const output = execute(validated.value, {
            toolCallId: exec.callId,
            messages: [],
            abortSignal: exec.signal,
            context: {},
          })
          return toJson(await settle(output))
        },
      }),
    )
  }
  return { definitions, skipped }
}

function unsupported(candidate: AISDKTool): string | undefined {
  if (candidate.type === 'provider') return 'the provider executes it'
  if (typeof candidate.execute !== 'function') return 'it has no execute function'
  return undefined
}

function describe(candidate: AISDKTool, key: string): string {
  const description = candidate.description
  if (typeof description === 'string' && description.trim() !== '') return description
  if (typeof description === 'function') {
    const text = description({ context: {} })
    if (text.trim() !== '') return text
  }
  return key
}

/** A streaming `execute` yields preliminary outputs; the last one is the result. */
async function settle(output: unknown): Promise<unknown> {
  const resolved = await output
  if (resolved === null || typeof resolved !== 'object' || !(Symbol.asyncIterator in resolved)) return resolved
  let last: unknown = null
  for await (const value of resolved as AsyncIterable<unknown>) last = value
  return last
}

function toJson(value: unknown): JsonValue {
  if (value === undefined) return null
  return JSON.parse(JSON.stringify(value)) as JsonValue
}
