import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { AnyToolDefinition, ToolExecution } from 'qilin-tools/internal/definition/tool-definition.js'
import { isToolError } from 'qilin-tools/internal/errors/tool-error.js'
import { createWorkspaceToolkit, type WorkspaceToolkit } from '../workspace-toolkit.js'

export interface TempWorkspace {
  /** Holds `root` and `outside`, a sibling directory the tools must never reach. */
  readonly base: string
  readonly root: string
  readonly outside: string
  readonly toolkit: WorkspaceToolkit
  /** Runs a tool body directly (no pipeline), returning its value. */
  run(name: string, args: Record<string, unknown>): Promise<unknown>
  /** Runs a tool body that must throw a `ToolError`, returning its message. */
  refusal(name: string, args: Record<string, unknown>): Promise<string>
  dispose(): void
}

/** A real temporary workspace: `files` maps relative paths to contents; `links` maps link paths to targets. */
export function createTempWorkspace(
  files: Record<string, string>,
  links: Record<string, string> = {},
  options: { bashTimeoutMs?: number } = {},
): TempWorkspace {
  const base = mkdtempSync(join(tmpdir(), 'qilin-toolkit-'))
  const root = join(base, 'root')
  const outside = join(base, 'outside')
  mkdirSync(root)
  mkdirSync(outside)
  writeFileSync(join(outside, 'secret.txt'), 'secret\n')
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  for (const [path, target] of Object.entries(links)) symlinkSync(target.replace('$OUTSIDE', outside), join(root, path))
  const toolkit = createWorkspaceToolkit({
    root,
    ...(options.bashTimeoutMs === undefined ? {} : { bash: { timeoutMs: options.bashTimeoutMs } }),
  })
  const find = (name: string): AnyToolDefinition => {
    const tool = toolkit.tools.find((candidate) => candidate.name === name)
    if (tool === undefined) throw new Error(`no tool ${name}`)
    return tool
  }
  const run = async (name: string, args: Record<string, unknown>) => await find(name).execute(args, execution(name))
  return {
    base,
    root,
    outside,
    toolkit,
    run,
    async refusal(name, args) {
      try {
        await run(name, args)
      } catch (error) {
        if (isToolError(error)) return error.message
        throw error
      }
      throw new Error(`expected ${name} to fail`)
    },
    dispose: () => rmSync(base, { recursive: true, force: true }),
  }
}

function execution(toolName: string): ToolExecution {
  return {
    signal: new AbortController().signal,
    callId: 'call-1',
    toolName,
    agentId: undefined,
    correlationId: 'c-1',
    escalated: false,
  }
}
