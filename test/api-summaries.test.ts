import { readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { workspacePackages } from '../scripts/workspace-packages.js'
import { repositoryRoot } from './support/built-cli.js'

/** An exported name whose declaration (as a value, or as a type) carries no summary line. */
interface UndocumentedExport {
  /** The entry point's file, repository-relative, e.g. `packages/mcp/src/index.ts`. */
  readonly entryPoint: string
  readonly name: string
  /** `value` for functions, constants, classes and enums; `type` for interfaces and type aliases. */
  readonly role: 'value' | 'type'
  /** Where the declaration lives, repository-relative, with its line: `packages/mcp/src/serve-mcp.ts:12`. */
  readonly declaredAt: string
}

/** The source behind each public entry of every package's `exports` map: `@qilin-tools/mcp` → `packages/mcp/src/index.ts`. */
function publicEntryPoints(): string[] {
  return workspacePackages().flatMap((workspace) => workspace.entryPoints.map((entry) => repositoryPath(entry.source)))
}

function repositoryPath(file: string): string {
  return relative(repositoryRoot, file).split(sep).join('/')
}

/** Interfaces and type aliases are types; anything else (function, constant, class, namespace) counts as a value. */
function roleOf(declaration: ts.Declaration): 'value' | 'type' {
  return ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration) ? 'type' : 'value'
}

/** The first line of the declaration's JSDoc text, before any tag; empty when there is none. */
function summaryLine(declaration: ts.Declaration): string {
  for (const node of ts.getJSDocCommentsAndTags(declaration)) {
    if (!ts.isJSDoc(node)) continue
    const text = ts.getTextOfJSDocComment(node.comment)?.trim() ?? ''
    const first = text.split('\n')[0]?.trim() ?? ''
    if (first !== '') return first
  }
  return ''
}

/**
 * Every name the given entry points export (values and types, re-exports followed to their declaration) whose
 * declaration has no JSDoc summary line. A name that is both a value and a type needs one on each.
 */
function undocumentedExports(entryPoints: readonly string[]): UndocumentedExport[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(repositoryRoot, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
      },
    },
  )
  if (config === undefined) throw new Error('tsconfig.json could not be read')
  const files = entryPoints.map((entryPoint) => join(repositoryRoot, entryPoint))
  const program = ts.createProgram({ rootNames: files, options: { ...config.options, noEmit: true } })
  const checker = program.getTypeChecker()
  const found: UndocumentedExport[] = []
  for (const [index, file] of files.entries()) {
    const entryPoint = entryPoints[index]!
    const source = program.getSourceFile(file)
    if (source === undefined) throw new Error(`${entryPoint} is not a source file the compiler can read`)
    const moduleSymbol = checker.getSymbolAtLocation(source)
    if (moduleSymbol === undefined) throw new Error(`${entryPoint} is not a module`)
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const byRole = new Map<'value' | 'type', { documented: boolean; first: ts.Declaration }>()
      for (const declaration of symbol.declarations ?? []) {
        const role = roleOf(declaration)
        const seen = byRole.get(role)
        const documented = summaryLine(declaration) !== ''
        byRole.set(role, { documented: (seen?.documented ?? false) || documented, first: seen?.first ?? declaration })
      }
      for (const [role, { documented, first }] of byRole) {
        if (documented) continue
        const declarationFile = first.getSourceFile()
        const line = declarationFile.getLineAndCharacterOfPosition(first.getStart()).line + 1
        found.push({
          entryPoint,
          name: exported.name,
          role,
          declaredAt: `${repositoryPath(declarationFile.fileName)}:${line}`,
        })
      }
    }
  }
  return found.sort((left, right) => byCodePoint(describeExport(left), describeExport(right)))
}

function byCodePoint(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0
}

function describeExport(entry: UndocumentedExport): string {
  return `${entry.entryPoint}: ${entry.name} (${entry.role}, ${entry.declaredAt})`
}

function describeAll(found: readonly UndocumentedExport[]): string[] {
  return found.map(describeExport)
}

describe('API summaries', () => {
  it('follows every entry of the exports map, as typedoc.json does', () => {
    const typedoc = JSON.parse(readFileSync(join(repositoryRoot, 'typedoc.json'), 'utf8')) as { entryPoints: string[] }
    expect(publicEntryPoints()).toContain('packages/core/src/index.ts')
    expect([...typedoc.entryPoints].sort()).toEqual(publicEntryPoints().sort())
  })

  it('names each undocumented export of an entry point, value or type, with the file that declares it', () => {
    const fixture = 'test/__fixtures__/api-summaries/index.ts'
    expect(describeAll(undocumentedExports([fixture]))).toEqual([
      `${fixture}: Pair (type, test/__fixtures__/api-summaries/index.ts:12)`,
      `${fixture}: UndescribedShape (type, test/__fixtures__/api-summaries/shapes.ts:6)`,
      `${fixture}: taggedOnly (value, test/__fixtures__/api-summaries/index.ts:17)`,
      `${fixture}: undescribedFunction (value, test/__fixtures__/api-summaries/functions.ts:6)`,
      `${fixture}: undescribedValue (value, test/__fixtures__/api-summaries/index.ts:8)`,
    ])
  })

  it('finds a one-line summary on every export of every public entry point', () => {
    expect(describeAll(undocumentedExports(publicEntryPoints()))).toEqual([])
  })
})
