import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import { ToolError } from 'qilin-tools/internal/errors/tool-error.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { describe, expect, it } from 'vitest'
import { workspacePackages } from '../scripts/workspace-packages.js'
import { repositoryRoot } from './support/built-cli.js'
import { expectFailure } from './support/settled-result.js'

type Module = Record<string, unknown>
type ErrorClass = abstract new (...args: never[]) => Error

function libraryFiles(directory: string): string[] {
  const files: string[] = []
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== '__fixtures__') files.push(...libraryFiles(path))
    } else if (entry.name.endsWith('.ts') && !/\.test(-d)?\.ts$|\.d\.ts$/.test(entry.name)) files.push(path)
  }
  return files
}

/** Every `export class X extends …Error` in library code, with the module that declares it. */
function declaredErrorClasses(): { file: string; name: string }[] {
  const declared: { file: string; name: string }[] = []
  const packages = join(repositoryRoot, 'packages')
  for (const file of readdirSync(packages).flatMap((name) => libraryFiles(join(packages, name, 'src')))) {
    for (const [, name] of readFileSync(file, 'utf8').matchAll(/^export class (\w+) extends \w*Error\b/gm)) {
      declared.push({ file, name: name! })
    }
  }
  return declared
}

const isErrorClass = (value: unknown): value is ErrorClass =>
  typeof value === 'function' && value.prototype instanceof Error

/** What is wrong with one class's brand and guard, or nothing. */
function brandProblems(module: Module, name: string, where: string): string[] {
  const errorClass = module[name]
  const guard = module[`is${name}`]
  if (!isErrorClass(errorClass)) return [`${where}: ${name} is not an exported Error class`]
  if (typeof guard !== 'function') return [`${where}: ${name} has no exported is${name} guard`]
  const problems: string[] = []
  if ((errorClass.prototype as Record<symbol, unknown>)[Symbol.for(`qilin-tools.${name}`)] !== true)
    problems.push(`${where}: ${name} does not carry Symbol.for('qilin-tools.${name}')`)
  if (guard(Object.create(errorClass.prototype)) !== true)
    problems.push(`${where}: is${name} does not recognise a ${name}`)
  if (guard(new Error(name)) !== false) problems.push(`${where}: is${name} accepts a plain Error`)
  return problems
}

describe('error classes', () => {
  it('every exported error class in library code is branded and has its is… guard beside it', async () => {
    const declared = declaredErrorClasses()
    expect(declared.length).toBeGreaterThanOrEqual(10)
    const problems: string[] = []
    for (const { file, name } of declared) {
      const module = (await import(pathToFileURL(file).href)) as Module
      problems.push(...brandProblems(module, name, relative(repositoryRoot, file)))
    }
    expect(problems).toEqual([])
  })

  it('every public entry point that exports an error class exports its guard', async () => {
    const problems: string[] = []
    for (const entry of workspacePackages().flatMap((workspace) => workspace.entryPoints)) {
      const module = (await import(pathToFileURL(entry.source).href)) as Module
      for (const [name, value] of Object.entries(module)) {
        if (isErrorClass(value)) problems.push(...brandProblems(module, name, entry.specifier))
      }
    }
    expect(problems).toEqual([])
  })

  it('names a class without brand or guard (the check can fail)', () => {
    class UnbrandedError extends Error {}
    class GuardedButUnbrandedError extends Error {}
    expect(brandProblems({ UnbrandedError }, 'UnbrandedError', 'fixture')).toEqual([
      'fixture: UnbrandedError has no exported isUnbrandedError guard',
    ])
    const looseGuard = (value: unknown) => value instanceof Error
    expect(
      brandProblems(
        { GuardedButUnbrandedError, isGuardedButUnbrandedError: looseGuard },
        'GuardedButUnbrandedError',
        'fixture',
      ),
    ).toEqual([
      "fixture: GuardedButUnbrandedError does not carry Symbol.for('qilin-tools.GuardedButUnbrandedError')",
      'fixture: isGuardedButUnbrandedError accepts a plain Error',
    ])
  })
})

describe('a spread copy of a ToolError', () => {
  it('thrown by a tool, settles as an ordinary tool failure (the guard once said yes and toInfo() was missing)', async () => {
    const runtime = createToolRuntime()
    runtime.register(
      defineTool({
        name: 'copier',
        description: 'Throws a spread copy of a ToolError.',
        parameters: {},
        execute: () => {
          throw { ...new ToolError({ code: ToolErrorCode.DENIED, message: 'no' }) }
        },
      }),
    )
    const result = await runtime.execute({ id: '1', name: 'copier', arguments: '{}' })
    expect(expectFailure(result).error.code).toBe(ToolErrorCode.TOOL_ERROR)
    expect(expectFailure(result).error.message).toBe('[object Object]')
  })

  it('a plain object forging the brand as its own key is an ordinary throw too, not an internal pipeline error', async () => {
    const runtime = createToolRuntime()
    runtime.register(
      defineTool({
        name: 'forger',
        description: 'Throws an object that claims to be a ToolError.',
        parameters: {},
        execute: () => {
          throw { [Symbol.for('qilin-tools.ToolError')]: true, code: ToolErrorCode.DENIED, message: 'trust me' }
        },
      }),
    )
    const result = await runtime.execute({ id: '1', name: 'forger', arguments: '{}' })
    expect(expectFailure(result).error).toEqual({ code: ToolErrorCode.TOOL_ERROR, message: '[object Object]' })
  })
})
