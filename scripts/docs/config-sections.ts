import { defaultPtcLimits } from '@qilin-tools/code-mode/internal/ptc-limits.js'
import type { OptionsSection } from './config-catalog.js'
import { type DeclaredField, declarationProgram, type InterfaceRequest, readInterface } from './read-interface.js'

interface SectionSource extends InterfaceRequest {
  readonly heading: string
  readonly intro: string
  /** Defaults held in code rather than in `@default` tags. */
  readonly defaults?: Readonly<Record<string, unknown>>
}

const number = new Intl.NumberFormat('en-US', { useGrouping: true })
/** `120 000`, as the rest of the catalog writes numbers. */
function spaced(value: unknown): string {
  if (typeof value !== 'number') return JSON.stringify(value)
  const text = number.format(value).replaceAll(',', ' ')
  const mebibytes = value / (1024 * 1024)
  return Number.isInteger(mebibytes) && mebibytes >= 1 ? `${text} (${mebibytes} MiB)` : text
}

/** The library's options objects, each read from its declaration. */
export const OPTION_SOURCES: readonly SectionSource[] = [
  {
    heading: '`createToolRuntime(config)`',
    intro: 'Checked when the runtime is created; an unknown field or a wrong value throws `ToolRuntimeConfigError`.',
    file: 'packages/core/src/pipeline/runtime-config.ts',
    name: 'ToolRuntimeConfig',
  },
  {
    heading: '`createNodePtcRuntime(options)` (`@qilin-tools/code-mode-node`)',
    intro: 'TypeScript code mode on Node.',
    file: 'packages/code-mode-node/src/create-node-ptc-runtime.ts',
    name: 'NodePtcRuntimeOptions',
  },
  {
    heading: '`createPythonPtcRuntime(options)` (`@qilin-tools/code-mode-python`)',
    intro: 'Python code mode in a confined CPython process.',
    file: 'packages/code-mode-python/src/create-python-ptc-runtime.ts',
    name: 'PythonPtcRuntimeOptions',
  },
  {
    heading: '`PtcLimits` (the `limits` of both code-mode runtimes)',
    intro: 'Every field may be overridden alone; the defaults are `defaultPtcLimits`.',
    file: 'packages/code-mode/src/ptc-limits.ts',
    name: 'PtcLimits',
    defaults: defaultPtcLimits as unknown as Record<string, unknown>,
  },
  {
    heading: '`serveMcp(runtime, options)` (`@qilin-tools/mcp`)',
    intro: 'Serves a runtime’s tools to MCP clients.',
    file: 'packages/mcp/src/serve-mcp.ts',
    name: 'ServeMcpOptions',
  },
  {
    heading: '`serveMcp` over HTTP: `transport: { http: … }`',
    intro: 'Streamable HTTP: where to listen, who may connect, how many sessions are kept.',
    file: 'packages/mcp/src/serve-mcp.ts',
    name: 'McpHttpTransport',
  },
]

function withCodeDefaults(fields: readonly DeclaredField[], source: SectionSource): DeclaredField[] {
  const defaults = source.defaults
  if (defaults === undefined) return [...fields]
  return fields.map((field) => {
    if (!Object.hasOwn(defaults, field.name)) throw new Error(`${source.name}.${field.name}: no default in code`)
    return { ...field, optional: true, default: spaced(defaults[field.name]) }
  })
}

/** Reads every options interface with the TypeScript compiler API. */
export function readOptionSections(root: string, sources: readonly SectionSource[] = OPTION_SOURCES): OptionsSection[] {
  const program = declarationProgram(root, [...new Set(sources.map((source) => source.file))])
  return sources.map((source) => ({
    heading: source.heading,
    intro: source.intro,
    interfaceName: source.name,
    fields: withCodeDefaults(readInterface(program, root, source), source),
  }))
}
