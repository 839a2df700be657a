import type { PtcToolView } from '@qilin-tools/code-mode/internal/ptc-port.js'
import { type BudgetedRender, renderWithinBudget } from '@qilin-tools/code-mode/internal/render-within-budget.js'
import type { JsonSchemaObject } from 'qilin-tools/internal/json-schema/node.js'
import { defaultRenderBudget, type RenderBudget, type WorkMeter } from 'qilin-tools/internal/providers/render-budget.js'
import { PythonDeclarations, type PythonField, withComment } from './python-declarations.js'
import { docstring, isPythonIdentifier, pythonString, toolAttributes } from './python-names.js'
import { objectFields, type PythonConversion, pythonLiteral, pythonType } from './schema-to-python-type.js'

const toolCallErrorDeclaration =
  'class ToolCallError(Exception): tool_name: str; code: str; message: str; call_id: str\n'

const typingNames = ['Any', 'Literal', 'Never', 'NotRequired', 'Required', 'TypedDict', 'Unpack']

/** A signature longer than this is broken into one parameter per line. */
const lineWidth = 100

/**
 * The Python SDK a program is written against: `ToolCallError`, TypedDicts for shapes (each once), and
 * `class tools` with one keyword-only coroutine per tool. Pure and byte-stable for the same set of tools in
 * any order; reads only JSON Schema. A tool over `budget` is left out; `buildPythonSdk` says which.
 */
export function renderPythonSdk(tools: readonly PtcToolView[], budget: RenderBudget = defaultRenderBudget): string {
  return buildPythonSdk(tools, budget).text
}

/** The declarations of `tools` alone, as a program's `search_tools` and `describe_tool` return them. */
export function declarePython(tools: readonly PtcToolView[]): string {
  const { text, omitted } = buildPythonSdk(tools)
  const declared = text.replace(toolCallErrorDeclaration, '')
  return omitted.length === 0
    ? declared
    : `${declared}${omitted.map((tool) => `# ${tool.name}: left out, ${tool.reason}\n`).join('')}`
}

/** The SDK text and the tools it leaves out for going over `budget`, each alone. */
export function buildPythonSdk(
  tools: readonly PtcToolView[],
  budget: RenderBudget = defaultRenderBudget,
): BudgetedRender {
  const sorted = [...tools].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
  return renderWithinBudget(sorted, renderSdk, budget)
}

function renderSdk(sorted: readonly PtcToolView[], meter: WorkMeter): string {
  const attributes = toolAttributes(sorted.map((tool) => tool.name))
  const census = new PythonDeclarations()
  for (const tool of sorted) renderBinding(tool, attributes.get(tool.name), census, meter)
  const declarations = new PythonDeclarations(census)
  const bindings = sorted.map((tool) => renderBinding(tool, attributes.get(tool.name), declarations, meter))
  const body = `${declarations.render()}class tools:\n${bindings.join('')}`
  const used = typingNames.filter((name) => new RegExp(`\\b${name}\\b`).test(body))
  const imports = used.length === 0 ? '' : `from typing import ${used.join(', ')}\n`
  return `${imports}${toolCallErrorDeclaration}${body}`
}

function renderBinding(
  tool: PtcToolView,
  attribute: string | undefined,
  declarations: PythonDeclarations,
  meter: WorkMeter,
): string {
  const conversion = (root: PythonConversion['root']): PythonConversion => ({
    root,
    toolName: tool.name,
    declarations,
    references: new Map(),
    meter,
  })
  const fields = objectFields(tool.parameters, 0, conversion(tool.parameters))
  const parameters = renderParameters(tool, fields, declarations)
  const result =
    tool.output === undefined ? 'Any' : pythonType(tool.output, 0, `${tool.name} result`, conversion(tool.output))
  const access = attribute === undefined ? `    # tools[${pythonString(tool.name)}]\n` : ''
  const head = `    async def ${attribute ?? '_'}(`
  const tail = `) -> ${result}:`
  const description = tool.description.trim()
  const body = description === '' ? ' ...\n' : `\n${docstring(description, '        ')}`
  const inline = parameters.every((parameter) => parameter.comment === undefined)
  const single = `${head}${parameters.map((parameter) => parameter.text).join(', ')}${tail}`
  if (inline && single.length <= lineWidth) return `${access}${single}${body}`
  const lines = parameters
    .filter((parameter) => parameter.text !== '*')
    .map((parameter) => withComment(`        ${parameter.text},`, parameter.comment, '        '))
  return `${access}${head}${parameters[0]?.text === '*' ? '*,' : ''}\n${lines.join('')}    ${tail}${body}`
}

interface Parameter {
  readonly text: string
  readonly comment: string | undefined
}

/** Keyword-only parameters; `**kwargs: Unpack[…]` when a key cannot be a Python parameter name. */
function renderParameters(
  tool: PtcToolView,
  fields: readonly PythonField[],
  declarations: PythonDeclarations,
): Parameter[] {
  if (fields.length === 0) return openArguments(tool.parameters)
  if (!fields.every((field) => isPythonIdentifier(field.name))) {
    const name = declarations.typedDict([`${tool.name} args`], fields)
    return [{ text: `**kwargs: Unpack[${name}]`, comment: undefined }]
  }
  const properties = tool.parameters.properties ?? {}
  const keywords = fields.map((field) => ({
    text: `${field.name}: ${field.type}${field.optional ? ` = ${defaultText(properties[field.name])}` : ''}`,
    comment: field.comment,
  }))
  return [{ text: '*', comment: undefined }, ...keywords]
}

/** A tool without declared keys takes none, unless its schema gives every extra key a type. */
function openArguments(parameters: JsonSchemaObject): Parameter[] {
  const additional = parameters.additionalProperties
  if (additional === undefined || typeof additional === 'boolean') return []
  return [{ text: '**kwargs: Any', comment: undefined }]
}

/** The schema's default as a Python literal when it has one that simple, else `...` (“may be left out”). */
function defaultText(property: unknown): string {
  if (typeof property !== 'object' || property === null || !('default' in property)) return '...'
  const value = (property as { default: unknown }).default
  if (Array.isArray(value) && value.length === 0) return '[]'
  return pythonLiteral(value as never) ?? '...'
}
