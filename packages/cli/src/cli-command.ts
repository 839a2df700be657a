import type { Readable } from 'node:stream'
import type { ExitCode } from './cli-error.js'

export interface CommandOption {
  readonly type: 'string' | 'boolean'
  readonly short?: string
  /** The placeholder shown in help, for string options: `--http <port>`. */
  readonly value?: string
  readonly description: string
}

/** The process as a command sees it; tests and the bench pass their own. */
export interface CliIo {
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  readonly stdin: Readable & { readonly isTTY?: boolean }
  readonly stdinIsTty: boolean
  readonly stderrIsTty: boolean
  write(text: string): void
  error(text: string): void
  /** Rewrites the current stderr line (TTY only). */
  status(text: string): void
  /** Aborted when the process is asked to stop (SIGINT, SIGTERM, SIGHUP): cancel what runs, close, return. */
  readonly stop: AbortSignal
}

export interface ParsedCommandLine {
  readonly values: Readonly<Record<string, string | boolean | undefined>>
  readonly positionals: readonly string[]
}

export interface CliCommand {
  readonly name: string
  readonly summary: string
  /** After `qilin-tools <name> `. */
  readonly usage: string
  readonly options: Readonly<Record<string, CommandOption>>
  readonly positionals: { readonly min: number; readonly max: number }
  /** Lines printed after the options in `--help`. */
  readonly details?: readonly string[]
  execute(commandLine: ParsedCommandLine, io: CliIo): Promise<ExitCode>
}

/** Options every command accepts. */
export const COMMON_OPTIONS = {
  config: { type: 'string', value: 'file', description: 'Read this config instead of looking for qilin.config.json' },
  debug: { type: 'boolean', description: 'Print stack traces of failures' },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} as const satisfies Record<string, CommandOption>
