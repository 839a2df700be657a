import { defaultRenderBudget, type RenderBudget, type WorkMeter } from 'qilin-tools/internal/providers/render-budget.js'
import type { PtcToolView } from '../ptc-port.js'
import { type BudgetedRender, renderWithinBudget } from '../render-within-budget.js'
import { hoistShapes } from './hoist-shapes.js'
import { type PrintOptions, printType, resolve } from './print-ts-type.js'
import { schemaToTsType } from './schema-to-ts-type.js'
import { docComment, memberKey } from './ts-names.js'
import type { TsType } from './ts-type.js'

const toolCallErrorDeclaration =
  'declare class ToolCallError extends Error { toolName: string; code: string; message: string; callId: string }\n'
const jsonValueDeclaration =
  'type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }\n'

interface ToolTypes {
  readonly tool: PtcToolView
  readonly args: TsType
  readonly result: TsType | undefined
}

/**
 * The TypeScript SDK a program is written against: `ToolCallError`, shared shapes as aliases, and
 * `declare const tools` with one method per tool. Pure and byte-stable for the same set of tools in
 * any order; reads only JSON Schema. A tool over `budget` is left out; `buildTypeScriptSdk` says which.
 */
export function renderTypeScriptSdk(tools: readonly PtcToolView[], budget: RenderBudget = defaultRenderBudget): string {
  return buildTypeScriptSdk(tools, budget).text
}

/** The declarations of `tools` alone, as a program's `search_tools` and `describe_tool` return them. */
export function declareTypeScript(tools: readonly PtcToolView[]): string {
  const { text, omitted } = buildTypeScriptSdk(tools)
  const declared = text.startsWith(toolCallErrorDeclaration) ? text.slice(toolCallErrorDeclaration.length) : text
  return omitted.length === 0
    ? declared
    : `${declared}${omitted.map((tool) => `// ${tool.name}: left out, ${tool.reason}\n`).join('')}`
}

/** The SDK text and the tools it leaves out for going over `budget`, each alone. */
export function buildTypeScriptSdk(
  tools: readonly PtcToolView[],
  budget: RenderBudget = defaultRenderBudget,
): BudgetedRender {
  const sorted = [...tools].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
  return renderWithinBudget(sorted, renderSdk, budget)
}

function renderSdk(sorted: readonly PtcToolView[], meter: WorkMeter): string {
  const nextId = { value: 0 }
  const typed = sorted.map(
    (tool): ToolTypes => ({
      tool,
      args: schemaToTsType(tool.parameters, `${tool.name} args`, nextId, meter),
      result: tool.output === undefined ? undefined : schemaToTsType(tool.output, `${tool.name} result`, nextId, meter),
    }),
  )
  const hoisting = hoistShapes(
    typed.flatMap((entry) => (entry.result === undefined ? [entry.args] : [entry.args, entry.result])),
    meter,
  )
  const printing = { aliasOf: hoisting.aliasOf, meter }
  const aliases = hoisting.aliases.map(({ name, type }) => {
    const aliasOf = (inner: TsType) => (inner === type ? undefined : hoisting.aliasOf(inner))
    return `type ${name} = ${printType(type, '', { aliasOf, meter })}\n`
  })
  const methods = typed.map(({ tool, args, result }) => {
    const comment = tool.description.trim() === '' ? '' : docComment(tool.description, '  ')
    const parameter = printParameter(args, printing)
    const resolved = result === undefined ? 'unknown' : printType(result, '  ', printing)
    return `${comment}  ${memberKey(tool.name)}(${parameter}): Promise<${resolved}>\n`
  })
  const body = `${aliases.join('')}declare const tools: {\n${methods.join('')}}\n`
  const usesJsonValue = /\bJsonValue\b/.test(body)
  return `${toolCallErrorDeclaration}${usesJsonValue ? jsonValueDeclaration : ''}${body}`
}

/** `()` for tools without arguments, `args?:` when every argument is optional. */
function printParameter(args: TsType, printing: PrintOptions): string {
  const resolved = resolve(args)
  if (resolved.kind === 'object' && resolved.members.length === 0) {
    const openIndex =
      resolved.index === undefined || (resolved.index.kind === 'keyword' && resolved.index.text === 'unknown')
    if (openIndex) return ''
  }
  const optional = resolved.kind === 'object' && resolved.members.every((member) => member.optional)
  return `args${optional ? '?' : ''}: ${printType(args, '  ', printing)}`
}
