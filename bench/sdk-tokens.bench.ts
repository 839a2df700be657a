/**
 * o200k token cost of one tool list three ways: native JSON schemas (name, description, parameters, as a
 * provider sends them), our TypeScript SDK block (with result types) and `@cloudflare/codemode`'s types.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import type { JsonSchemaNode, JsonSchemaObject } from '../src/json-schema/node.js'
import type { PtcToolView } from '../src/ptc/ptc-port.js'
import { renderTypeScriptSdk } from '../src/ptc/ts-sdk/render-typescript-sdk.js'
import { markdownTable } from './measure.js'

interface McpTool {
  readonly name: string
  readonly description?: string
  readonly inputSchema: JsonSchemaObject
  readonly outputSchema?: JsonSchemaNode
}

type GenerateTypes = (
  tools: Record<string, { description?: string; inputSchema: unknown; outputSchema?: unknown }>,
) => string

// codemode's package entry imports `cloudflare:workers`; its type generator lives in a plain, hash-named chunk.
const codemodeDist = new URL('../node_modules/@cloudflare/codemode/dist/', import.meta.url)
const codemodeChunk = readdirSync(codemodeDist).find((file) => /^json-schema-types-.*\.js$/.test(file))
if (codemodeChunk === undefined) throw new Error('@cloudflare/codemode: no json-schema-types chunk in dist/')
const chunk = (await import(new URL(codemodeChunk, codemodeDist).href)) as Record<string, unknown>
// The chunk's exports are minified; the generator is the one that turns a descriptor record into `type` text.
const foundGenerator = Object.values(chunk).find(
  (candidate): candidate is GenerateTypes =>
    typeof candidate === 'function' &&
    (() => {
      try {
        return String(candidate({ probe: { inputSchema: { type: 'object' } } })).includes('ProbeInput')
      } catch {
        return false
      }
    })(),
)
if (foundGenerator === undefined) throw new Error('@cloudflare/codemode: type generator not found')
const generateTypesFromJsonSchema: GenerateTypes = foundGenerator

const directory = new URL('../../shared/mcp-toolsets/', import.meta.url).pathname
const lists = readdirSync(directory)
  .filter((file) => file.endsWith('.json') && !file.startsWith('_'))
  .sort()

/** `$schema` is dropped from the native side too, so the comparison does not flatter the SDK. */
function nativeText(tools: readonly McpTool[]): string {
  return tools
    .map((tool) => {
      const { $schema: _dialect, ...parameters } = tool.inputSchema
      return JSON.stringify({ name: tool.name, description: tool.description ?? '', parameters })
    })
    .join('\n')
}

function views(tools: readonly McpTool[]): PtcToolView[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? '',
    parameters: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { output: tool.outputSchema }),
  }))
}

function codemodeText(tools: readonly McpTool[]): string {
  const descriptors = Object.fromEntries(
    tools.map((tool) => [
      tool.name,
      {
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
      },
    ]),
  )
  return generateTypesFromJsonSchema(descriptors)
}

const rows: (string | number)[][] = []
const totals = { native: 0, sdk: 0, codemode: 0 }
let failures = 0
for (const file of lists) {
  const tools = (JSON.parse(readFileSync(join(directory, file), 'utf8')) as { tools: McpTool[] }).tools
  const native = encode(nativeText(tools)).length
  const sdk = encode(renderTypeScriptSdk(views(tools))).length
  const codemode = encode(codemodeText(tools)).length
  totals.native += native
  totals.sdk += sdk
  totals.codemode += codemode
  const pass = sdk < native && sdk < codemode
  if (!pass) failures++
  rows.push([file, tools.length, native, sdk, codemode, (sdk / native).toFixed(2), pass ? 'yes' : 'NO'])
}
const totalRatio = totals.sdk / totals.native
rows.push([
  'total',
  '',
  totals.native,
  totals.sdk,
  totals.codemode,
  totalRatio.toFixed(2),
  totalRatio <= 0.8 ? 'yes' : 'NO',
])
console.log(markdownTable(['list', 'tools', 'native JSON', 'our SDK', 'codemode', 'SDK / native', 'target met'], rows))
if (failures > 0 || totalRatio > 0.8) process.exitCode = 1
