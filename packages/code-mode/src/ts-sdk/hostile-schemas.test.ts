import { createNodePtcRuntime } from '@qilin-tools/code-mode-node/internal/create-node-ptc-runtime.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { defaultRenderBudget } from 'qilin-tools/internal/providers/render-budget.js'
import { jsonSchema } from 'qilin-tools/internal/schema/json-schema-spec.js'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultPtcLimits } from '../ptc-limits.js'
import type { PtcToolView } from '../ptc-port.js'
import {
  deepNesting,
  HOSTILE_TEXTS,
  hostileTool,
  hugeEnum,
  injectingKeywordsTool,
  injectingTool,
  readFileTool,
  refFanOut,
} from './__fixtures__/hostile-tools.js'
import { acceptsWithValidator, presentTypeScript } from './present-typescript.js'
import { buildTypeScriptSdk, renderTypeScriptSdk } from './render-typescript-sdk.js'

const presentOptions = { limits: defaultPtcLimits, accepts: acceptsWithValidator }

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now()
  const value = work()
  return { value, ms: performance.now() - started }
}

describe('the TypeScript SDK leaves a tool over budget out, alone', () => {
  const alone = renderTypeScriptSdk([readFileTool])

  it('renders a 26-level anyOf/$ref fan-out (RangeError: Invalid string length before) as if never registered', () => {
    const evil = hostileTool('evil', refFanOut(26))
    const { value, ms } = timed(() => buildTypeScriptSdk([evil, readFileTool]))
    expect(value.omitted).toEqual([{ name: 'evil', reason: 'rendering it took more than 250000 steps' }])
    expect(value.text).toBe(alone)
    expect(ms).toBeLessThan(1_000)
  })

  it('leaves out a schema nested past the stack, alone', () => {
    const sdk = buildTypeScriptSdk([hostileTool('evil', deepNesting(30_000)), readFileTool])
    expect(sdk.omitted).toEqual([{ name: 'evil', reason: 'rendering it failed: Maximum call stack size exceeded' }])
    expect(sdk.text).toBe(alone)
  })

  it('still renders a small fan-out, whose declarations fit', () => {
    const sdk = buildTypeScriptSdk([hostileTool('fan', refFanOut(4))])
    expect(sdk.omitted).toEqual([])
    expect(sdk.text).toContain('type D0 = D1 | D1[]')
  })

  it('leaves out a million-value enum (a 16 MB SDK before) without reading all of it', () => {
    const evil = hostileTool('evil', hugeEnum(1_000_000))
    const { value, ms } = timed(() => buildTypeScriptSdk([readFileTool, evil]))
    expect(value.omitted).toEqual([{ name: 'evil', reason: 'its schema takes more than 524288 bytes' }])
    expect(value.text).toBe(alone)
    expect(ms).toBeLessThan(100)
  })

  it('leaves out a tool whose declarations pass maxToolBytes', () => {
    const budget = { ...defaultRenderBudget, maxToolBytes: 20_000 }
    const sdk = buildTypeScriptSdk([readFileTool, hostileTool('evil', hugeEnum(2_000))], budget)
    expect(sdk.omitted).toEqual([
      { name: 'evil', reason: expect.stringMatching(/^its declarations take \d+ bytes, over 20000$/) },
    ])
    expect(sdk.text).toBe(alone)
  })

  it('over maxTotalBytes, leaves out the largest tools until the rest fits, and renders the rest unchanged', () => {
    const tools: PtcToolView[] = [readFileTool, hostileTool('big', hugeEnum(300)), hostileTool('medium', hugeEnum(100))]
    const full = renderTypeScriptSdk(tools)
    const withoutBig = renderTypeScriptSdk([tools[0] as PtcToolView, tools[2] as PtcToolView])
    const sdk = buildTypeScriptSdk(tools, { ...defaultRenderBudget, maxTotalBytes: withoutBig.length + 10 })
    expect(full.length).toBeGreaterThan(withoutBig.length + 10)
    expect(sdk.omitted).toEqual([
      {
        name: 'big',
        reason: `the whole text would pass ${withoutBig.length + 10} bytes; this tool is among the largest`,
      },
    ])
    expect(sdk.text).toBe(withoutBig)
  })

  it('keeps the prompt within maxPromptBytes and reports what it left out', () => {
    const tools = [readFileTool, hostileTool('big', hugeEnum(300))]
    const expected = presentTypeScript([readFileTool], 'ptc', presentOptions)
    const size = expected.sections.reduce((sum, section) => sum + section.text.length, 0)
    const limits = { ...defaultPtcLimits, maxPromptBytes: JSON.stringify(expected.runCode).length + size + 100 }
    const presented = presentTypeScript(tools, 'ptc', { ...presentOptions, limits })
    expect(presented.omitted?.map((entry) => entry.name)).toEqual(['big'])
    expect(presented.sections).toEqual(presentTypeScript([readFileTool], 'ptc', { ...presentOptions, limits }).sections)
    expect(presentTypeScript(tools, 'ptc', presentOptions).omitted).toBeUndefined()
  })
})

/** Top-level declarations by kind and name, and the member names of `declare const tools`. */
function declarations(sdk: string): { statements: string[]; tools: string[]; diagnostics: string[] } {
  const source = ts.createSourceFile('sdk.d.ts', sdk, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
  const { diagnostics = [] } = ts.transpileModule(sdk, { reportDiagnostics: true, fileName: 'sdk.ts' })
  const statements: string[] = []
  let tools: string[] = []
  for (const statement of source.statements) {
    if (ts.isClassDeclaration(statement)) statements.push(`class ${statement.name?.text}`)
    else if (ts.isTypeAliasDeclaration(statement)) statements.push(`type ${statement.name.text}`)
    else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        statements.push(`const ${declaration.name.getText(source)}`)
        const type = declaration.type
        if (declaration.name.getText(source) === 'tools' && type !== undefined && ts.isTypeLiteralNode(type)) {
          tools = type.members.map((member) => member.name?.getText(source) ?? '?')
        }
      }
    } else statements.push(ts.SyntaxKind[statement.kind])
  }
  return {
    statements,
    tools,
    diagnostics: diagnostics.map((item) => ts.flattenDiagnosticMessageText(item.messageText, '\n')),
  }
}

/** Every line break any reader honours; after escaping, none may appear but LF. */
const foreignBreaks = /[\r\v\f\u0085\u2028\u2029]/

describe('schema text stays data in the TypeScript SDK', () => {
  for (const [name, text] of Object.entries(HOSTILE_TEXTS)) {
    it(`keeps ${name} inside its comment or string literal`, () => {
      const sdk = renderTypeScriptSdk([injectingTool(text), injectingKeywordsTool(text), readFileTool])
      const parsed = declarations(sdk)
      expect(parsed.diagnostics).toEqual([])
      expect(parsed.tools).toEqual(['notes', 'read_file', 'search'])
      expect(parsed.statements).toEqual(['class ToolCallError', 'const tools'])
      expect(sdk).not.toMatch(foreignBreaks)
      // A description line never starts where a declaration would: every comment line sits behind its gutter.
      for (const line of sdk.split('\n')) expect(line).not.toMatch(/^\s*(admin_export_secrets|class tools|async def)/)
    })
  }
})

describe('runtime.prompt() with a hostile MCP-like tool registered', () => {
  const ptc = createNodePtcRuntime({ poolSize: 0 })
  afterAll(() => ptc.close())
  const register = (runtime: ReturnType<typeof createToolRuntime>, tool: PtcToolView) =>
    runtime.register(
      defineTool({
        name: tool.name,
        description: tool.description,
        parameters: jsonSchema(tool.parameters),
        execute: () => null,
      }),
    )

  // Under 'both' the registered schemas are listed within the native prompt's budget: a 2 KB fan-out is listed as
  // sent (only its SDK declarations are too large), a 9 MB enum is left out of both.
  it.each([
    ['a 26-level anyOf/$ref fan-out', refFanOut(26), ['evil', 'read_file', 'run_code']],
    ['a million-value enum', hugeEnum(1_000_000), ['read_file', 'run_code']],
  ])('leaves out %s and gives the prompt it would give without it, byte for byte', (_name, parameters, listed) => {
    const clean = createToolRuntime({ mode: 'both', ptcRuntime: ptc })
    register(clean, readFileTool)
    const attacked = createToolRuntime({ mode: 'both', ptcRuntime: ptc })
    register(attacked, readFileTool)
    register(attacked, hostileTool('evil', parameters))
    const prompt = attacked.prompt()
    expect(prompt.omitted).toEqual([{ name: 'evil', reason: expect.any(String) }])
    expect(prompt.sections).toEqual(clean.prompt().sections)
    expect(clean.prompt().omitted).toBeUndefined()
    expect(prompt.tools.map((tool) => tool.name)).toEqual(listed)
  })
})
