import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AnyToolDefinition } from '../../src/definition/tool-definition.js'
import { createToolRuntime } from '../../src/pipeline/create-tool-runtime.js'
import { codeModeRuntime } from '../../src/ptc/code-mode.js'
import { createNodePtcRuntime } from '../../src/ptc/node/create-node-ptc-runtime.js'
import { defaultPtcLimits } from '../../src/ptc/ptc-limits.js'
import type { PtcLanguage, PtcRuntime, PtcToolView } from '../../src/ptc/ptc-port.js'
import { presentPython } from '../../src/ptc/python/present-python.js'
import { renderPythonSdk } from '../../src/ptc/python/render-python-sdk.js'
import { offerEscalation } from '../../src/ptc/run-code-schema.js'
import { renderTypeScriptSdk } from '../../src/ptc/ts-sdk/render-typescript-sdk.js'
import type { PromptSection, ToolSchema } from '../../src/registry/tool-schema.js'
import { createWorkspaceToolkit } from '../../src/toolkit/workspace-toolkit.js'
import { fenced, generatedNotice } from './markdown.js'

/** One shipped tool: the schema the model receives, and its declaration in each code-mode SDK alone. */
export interface CatalogTool {
  readonly schema: ToolSchema
  readonly typescript: string
  readonly python: string
}

/** `run_code` of one language: its schema, with escalation offered, and the prompt sections under `ptc`. */
export interface CatalogRunCode {
  readonly language: PtcLanguage
  readonly schema: ToolSchema
  readonly escalatedSchema: ToolSchema
  readonly sections: readonly PromptSection[]
}

export interface ToolCatalogInput {
  /** Each tool in the order the model sees them. */
  readonly tools: readonly CatalogTool[]
  readonly runCode: readonly CatalogRunCode[]
}

/**
 * The Python presentation as `createPythonPtcRuntime` gives it, without starting an interpreter: what the model
 * sees does not depend on the machine.
 */
export function pythonPresentation(escalated: boolean): PtcRuntime {
  return codeModeRuntime({
    language: 'python',
    present: (tools, mode) =>
      offerEscalation(presentPython(tools, mode, defaultPtcLimits), escalated ? { network: true } : undefined),
    run: () => Promise.reject(new Error('the catalog never runs a program')),
    close: () => Promise.resolve(),
  })
}

function typeScriptPresentation(escalated: boolean): PtcRuntime {
  return createNodePtcRuntime({ poolSize: 0, ...(escalated ? { escalation: { network: true } } : {}) })
}

interface CodeModeView {
  readonly runCode: ToolSchema
  readonly sections: readonly PromptSection[]
  readonly views: readonly PtcToolView[]
}

/** What a runtime in `ptc` mode shows, and the tool views the pipeline handed its code-mode runtime. */
function presentCodeMode(tools: readonly AnyToolDefinition[], ptcRuntime: PtcRuntime): CodeModeView {
  let views: readonly PtcToolView[] = []
  const watched: PtcRuntime = codeModeRuntime({
    ...ptcRuntime,
    present(visible, mode) {
      views = visible
      return ptcRuntime.present(visible, mode)
    },
  })
  const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime: watched })
  for (const tool of tools) runtime.register(tool)
  const prompt = runtime.prompt()
  const runCode = prompt.tools.find((tool) => tool.name === 'run_code')
  if (runCode === undefined) throw new Error('a ptc runtime presented no run_code')
  return { runCode, sections: prompt.sections, views }
}

/** Builds the shipped tools in a scratch workspace and reads what the model receives of each. */
export async function collectToolCatalog(): Promise<ToolCatalogInput> {
  const root = mkdtempSync(join(tmpdir(), 'qilin-tool-catalog-'))
  const runtimes: Record<PtcLanguage, readonly [PtcRuntime, PtcRuntime]> = {
    typescript: [typeScriptPresentation(false), typeScriptPresentation(true)],
    python: [pythonPresentation(false), pythonPresentation(true)],
  }
  try {
    const toolkit = createWorkspaceToolkit({ root })
    const native = createToolRuntime({ mode: 'native' })
    for (const tool of toolkit.tools) native.register(tool)
    const runCode = (['typescript', 'python'] as const).map((language) => {
      const [plain, escalated] = runtimes[language]
      return {
        language,
        plain: presentCodeMode(toolkit.tools, plain),
        escalated: presentCodeMode(toolkit.tools, escalated),
      }
    })
    const views = new Map(runCode[0]?.plain.views.map((view) => [view.name, view]))
    const tools = native.prompt().tools.map((schema): CatalogTool => {
      const view = views.get(schema.name)
      if (view === undefined) throw new Error(`${schema.name}: not handed to code mode`)
      return { schema, typescript: renderTypeScriptSdk([view]), python: renderPythonSdk([view]) }
    })
    const input: ToolCatalogInput = {
      tools,
      runCode: runCode.map(({ language, plain, escalated }) => ({
        language,
        schema: plain.runCode,
        escalatedSchema: escalated.runCode,
        sections: plain.sections,
      })),
    }
    refuseMachineText(JSON.stringify(input), [root, realpathSync(root)])
    return input
  } finally {
    await Promise.allSettled(
      Object.values(runtimes)
        .flat()
        .map((runtime) => runtime.close()),
    )
    rmSync(root, { recursive: true, force: true })
  }
}

function refuseMachineText(text: string, paths: readonly string[]): void {
  const leaked = paths.find((path) => text.includes(path))
  if (leaked !== undefined) throw new Error(`tool catalog: a machine path leaked into what the model sees: ${leaked}`)
}

const json = (value: unknown) => fenced('json', JSON.stringify(value, null, 2))
const languageTitle: Record<PtcLanguage, string> = { typescript: 'TypeScript', python: 'Python' }

function toolSection(tool: CatalogTool): string {
  return [
    `### \`${tool.schema.name}\`\n`,
    `${tool.schema.description}\n`,
    `Parameters:\n\n${json(tool.schema.parameters)}`,
    `TypeScript declaration:\n\n${fenced('ts', tool.typescript)}`,
    `Python declaration:\n\n${fenced('python', tool.python)}`,
  ].join('\n')
}

function runCodeSection(entry: CatalogRunCode): string {
  const sections = entry.sections.map(
    (section) => `Prompt section \`${section.id}\` (order ${section.order}):\n\n${fenced('text', section.text)}`,
  )
  return [
    `### \`${entry.schema.name}\` (${languageTitle[entry.language]})\n`,
    `${entry.schema.description}\n`,
    `Parameters:\n\n${json(entry.schema.parameters)}`,
    `Parameters when escalation is configured (\`sandbox_permissions\` offered):\n\n${json(entry.escalatedSchema.parameters)}`,
    ...sections,
  ].join('\n')
}

/** `docs/tool-catalog.md`: every shipped tool as the model receives it. */
export function toolCatalog(input: ToolCatalogInput): string {
  return [
    generatedNotice('the tool definitions'),
    '# Tool catalog\n',
    'Every tool qilin-tools ships, exactly as the model receives it: the name, the description and the parameter',
    'schema of the native presentation, and the declaration each code-mode SDK gives it. The workspace toolkit is',
    'shown with its default options (`bash` confined by bubblewrap, no network).\n',
    '## The workspace toolkit (`createWorkspaceToolkit`)\n',
    ...input.tools.map(toolSection),
    '## `run_code` (code mode)\n',
    'Under `ptc` the model sees `run_code` alone and the prompt sections below, which carry the SDK of every visible',
    'tool (here the workspace toolkit); under `both` it sees the tools too, and only the SDK section.\n',
    ...input.runCode.map(runCodeSection),
  ].join('\n')
}
