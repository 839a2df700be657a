import { existsSync } from 'node:fs'
import ts from 'typescript'

/** What one entry point's declaration file exports, by name: runtime values, and types (a class is both). */
export interface DeclaredExports {
  readonly values: readonly string[]
  readonly types: readonly string[]
}

/**
 * Reads the exports of built declaration files with the compiler, as a consumer's compiler sees them: re-exports
 * followed to their declaration, `export type` counted as a type only.
 */
export function declaredExports(files: readonly string[]): Map<string, DeclaredExports> {
  for (const file of files) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`)
  }
  const program = ts.createProgram([...files], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  })
  const checker = program.getTypeChecker()
  const result = new Map<string, DeclaredExports>()
  for (const file of files) {
    const source = program.getSourceFile(file)
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    if (module === undefined) throw new Error(`${file} is not a module`)
    const values: string[] = []
    const types: string[] = []
    for (const symbol of checker.getExportsOfModule(module)) {
      const { flags } = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
      const typeOnly = isTypeOnlyExport(symbol)
      if (flags & ts.SymbolFlags.Value && !typeOnly) values.push(symbol.name)
      if (flags & ts.SymbolFlags.Type) types.push(symbol.name)
    }
    result.set(file, { values: values.sort(), types: types.sort() })
  }
  return result
}

function isTypeOnlyExport(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some(
    (declaration) =>
      ts.isTypeOnlyImportOrExportDeclaration(declaration) ||
      (ts.isExportSpecifier(declaration) && declaration.parent.parent.isTypeOnly),
  )
}
