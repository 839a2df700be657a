// `node --import tsx scripts/count-example-lines.ts`: the lines of each agent example and of the same agent
// written for its framework without qilin-tools, counted without blank lines and comments. A module an example
// imports from examples/ (the shared tools, the baselines' MCP client) counts toward every example that imports it.
import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'

const repository = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const examples = resolve(repository, 'examples')

/** Each example beside its baseline; the raw openai one also has a target of its own (at most 60 lines). */
export const examplePairs = [
  { framework: 'openai (raw, runToolTurn)', example: 'openai-agent.ts', baseline: 'baselines/openai-agent.ts' },
  { framework: 'AI SDK', example: 'ai-sdk-agent.ts', baseline: 'baselines/ai-sdk-agent.ts' },
  { framework: 'OpenAI Agents', example: 'openai-agents-agent.ts', baseline: 'baselines/openai-agents-agent.ts' },
  { framework: 'LangChain', example: 'langchain-agent.ts', baseline: 'baselines/langchain-agent.ts' },
] as const

/**
 * The lines of `text` that hold code: a line counts when any token touches it. Tokens come from TypeScript's own
 * scanner as its parser drives it (`getChildren` scans the tokens between nodes, rescanning regular expressions
 * and template parts in context), so `//` or `/*` inside a string or a template is code, and comments are trivia.
 */
export function codeLines(text: string, fileName = 'file.ts'): number {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const lines = new Set<number>()
  const visit = (node: ts.Node) => {
    const children = node.getChildren(source)
    if (children.length > 0 || node.kind === ts.SyntaxKind.SyntaxList) {
      for (const child of children) visit(child)
      return
    }
    if (node.kind === ts.SyntaxKind.EndOfFileToken) return
    const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
    const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
    for (let line = first; line <= last; line++) lines.add(line)
  }
  visit(source)
  return lines.size
}

/** `file` and the modules under examples/ it imports, directly or not, each once. */
export function localModules(file: string): string[] {
  const seen = new Set<string>()
  const pending = [resolve(examples, file)]
  while (pending.length > 0) {
    const path = pending.pop()!
    if (seen.has(path)) continue
    seen.add(path)
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true)
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
      const specifier = statement.moduleSpecifier.text
      if (specifier.startsWith('.')) pending.push(resolve(dirname(path), specifier.replace(/\.js$/, '.ts')))
    }
  }
  return [...seen].map((path) => relative(examples, path)).sort()
}

/** The code lines of `file` and of every module under examples/ it imports. */
export function exampleLines(file: string): { readonly lines: number; readonly modules: string[] } {
  const modules = localModules(file)
  const lines = modules.reduce((sum, module) => sum + codeLines(readFileSync(resolve(examples, module), 'utf8')), 0)
  return { lines, modules }
}

/** One row per framework: the example's lines, the baseline's, and what each counted. */
export function lineCountTable() {
  return examplePairs.map((pair) => ({
    ...pair,
    ours: exampleLines(pair.example),
    theirs: exampleLines(pair.baseline),
  }))
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log('| framework | with qilin-tools | without | counted with qilin-tools | counted without |')
  console.log('| --- | ---: | ---: | --- | --- |')
  for (const row of lineCountTable()) {
    const files = (modules: string[]) => modules.map((module) => `\`${module}\``).join(' + ')
    console.log(
      `| ${row.framework} | ${row.ours.lines} | ${row.theirs.lines} | ${files(row.ours.modules)} | ${files(row.theirs.modules)} |`,
    )
  }
}
