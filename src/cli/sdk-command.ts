import type { PtcLanguage } from '../ptc/ptc-port.js'
import type { PresentationMode } from '../registry/tool-schema.js'
import { buildRuntime } from './build-runtime.js'
import type { CliCommand } from './cli-command.js'
import { CliError, ExitCode } from './cli-error.js'
import { loadConfig } from './load-config.js'
import { type ModeView, modelView, ptcToolViews } from './model-view.js'
import { loadTokenCounter } from './token-count.js'

const LANGUAGES: Readonly<Record<string, PtcLanguage>> = { ts: 'typescript', py: 'python' }
const MODES: readonly PresentationMode[] = ['native', 'ptc', 'both']

export const sdkCommand: CliCommand = {
  name: 'sdk',
  summary: 'Print exactly what the model sees (tools, sections, SDK) with o200k token counts per part',
  usage: '[options]',
  positionals: { min: 0, max: 0 },
  options: {
    lang: { type: 'string', value: 'ts|py', description: 'SDK language for ptc and both (default: config, else ts)' },
    mode: { type: 'string', value: 'native|ptc|both', description: 'Show one mode in full (default: native and ptc)' },
    declarations: { type: 'boolean', description: 'Print only the SDK declarations a program is written against' },
    json: { type: 'boolean', description: 'Print every part and count as JSON' },
  },
  details: [
    'A tool counts as its schema in JSON (name, description, parameters); a section as its text.',
    'The summary compares every mode side by side.',
  ],
  async execute({ values }, io) {
    const language = languageOf(values.lang as string | undefined)
    const shown = modesOf(values.mode as string | undefined)
    const loaded = loadConfig(values.config as string | undefined, [io.cwd], io.cwd)
    const built = await buildRuntime(
      loaded,
      { mode: 'native', language: language ?? loaded.config.language ?? 'typescript' },
      io,
    )
    try {
      if (values.declarations === true) {
        io.write(await declarations(built.runtime, language ?? loaded.config.language ?? 'typescript'))
        return ExitCode.ok
      }
      const countTokens = await loadTokenCounter()
      const views = MODES.map((mode) => modelView(built.runtime, mode, countTokens))
      if (values.json === true) io.write(`${JSON.stringify({ modes: views }, null, 2)}\n`)
      else
        io.write(
          renderViews(
            views.filter((view) => shown.includes(view.mode)),
            views,
          ),
        )
      return ExitCode.ok
    } finally {
      await built.close()
    }
  },
}

async function declarations(runtime: Parameters<typeof ptcToolViews>[0], language: PtcLanguage): Promise<string> {
  const tools = ptcToolViews(runtime)
  if (language === 'python') {
    const { renderPythonSdk } = await import('../ptc/python/render-python-sdk.js')
    return renderPythonSdk(tools)
  }
  const { renderTypeScriptSdk } = await import('../ptc/ts-sdk/render-typescript-sdk.js')
  return renderTypeScriptSdk(tools)
}

function languageOf(lang: string | undefined): PtcLanguage | undefined {
  if (lang === undefined) return undefined
  const language = LANGUAGES[lang]
  if (language === undefined) throw new CliError(`sdk: --lang must be ts or py (got "${lang}")`)
  return language
}

function modesOf(mode: string | undefined): readonly PresentationMode[] {
  if (mode === undefined) return ['native', 'ptc']
  if (!(MODES as readonly string[]).includes(mode))
    throw new CliError(`sdk: --mode must be native, ptc or both (got "${mode}")`)
  return [mode as PresentationMode]
}

function renderViews(shown: readonly ModeView[], all: readonly ModeView[]): string {
  const blocks = shown.map((view) => {
    const heading = `=== ${view.mode}: ${plural(count(view, 'tool'), 'tool')}, ${plural(count(view, 'section'), 'section')}, ${view.tokens} tokens ===`
    const parts = view.parts.map((part) => `--- ${part.kind} ${part.name} (${part.tokens} tokens) ---\n${part.text}`)
    return [heading, ...parts].join('\n\n')
  })
  const rows = all.map(
    (view) =>
      `| ${view.mode.padEnd(6)} | ${String(count(view, 'tool')).padStart(5)} | ${String(count(view, 'section')).padStart(8)} | ${String(tokensOf(view, 'tool')).padStart(11)} | ${String(tokensOf(view, 'section')).padStart(14)} | ${String(view.tokens).padStart(6)} |`,
  )
  const summary = [
    '=== summary (o200k tokens) ===',
    '',
    '| mode   | tools | sections | tool tokens | section tokens | total  |',
    '|--------|-------|----------|-------------|----------------|--------|',
    ...rows,
  ].join('\n')
  return `${[...blocks, summary].join('\n\n')}\n`
}

const count = (view: ModeView, kind: 'tool' | 'section') => view.parts.filter((part) => part.kind === kind).length
const tokensOf = (view: ModeView, kind: 'tool' | 'section') =>
  view.parts.filter((part) => part.kind === kind).reduce((total, part) => total + part.tokens, 0)

const plural = (amount: number, noun: string) => `${amount} ${noun}${amount === 1 ? '' : 's'}`
