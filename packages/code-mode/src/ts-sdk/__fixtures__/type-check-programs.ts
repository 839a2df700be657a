import ts from 'typescript'

/** What a sandbox program can use besides the SDK; the model is told about these in prose, not in the SDK. */
const sandboxGlobals = `
declare const console: { log(...values: unknown[]): void; info(...values: unknown[]): void; warn(...values: unknown[]): void; error(...values: unknown[]): void }
declare function setTimeout(callback: () => void, ms?: number): number
declare function clearTimeout(id: number | undefined): void
`

export interface ProgramDiagnostics {
  /** Diagnostics per program, in the order given; empty when the program type-checks. */
  readonly programs: readonly string[][]
  /** Diagnostics in the SDK declaration itself. */
  readonly sdk: readonly string[]
}

/**
 * Type-checks each program as the body of an async function against the SDK under `strict`,
 * in memory, with the TypeScript compiler API. Test support for the SDK renderers.
 */
export function typeCheckPrograms(sdk: string, programs: readonly string[]): ProgramDiagnostics {
  const files = new Map<string, string>([['/sdk.d.ts', `${sandboxGlobals}${sdk}`]])
  programs.forEach((code, index) => {
    files.set(`/program-${index}.ts`, `export {}\nasync function program() {\n${code}\n}\nvoid program\n`)
  })
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    types: [],
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
  }
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.readFile = (name) => files.get(name) ?? readFile(name)
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name)
  host.getSourceFile = (name, language) => {
    const text = files.get(name)
    return text === undefined ? getSourceFile(name, language) : ts.createSourceFile(name, text, language, true)
  }
  const program = ts.createProgram([...files.keys()], options, host)
  const messages = (name: string) =>
    ts
      .getPreEmitDiagnostics(program, program.getSourceFile(name))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  return { sdk: messages('/sdk.d.ts'), programs: programs.map((_, index) => messages(`/program-${index}.ts`)) }
}
