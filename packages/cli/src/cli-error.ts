import { brandError } from 'qilin-tools/internal/errors/brand.js'
/** How the process ends: 1 for a failed program or call, 2 for a usage or configuration mistake. */
export const ExitCode = { ok: 0, failed: 1, usage: 2 } as const

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

/** A failure the CLI reports as one line on stderr, without a stack trace. */
export class CliError extends Error {
  readonly exitCode: ExitCode

  constructor(message: string, exitCode: ExitCode = ExitCode.usage, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'CliError'
    this.exitCode = exitCode
  }
}

/** Recognises a CliError from any copy of this package or realm. */
export const isCliError = brandError(CliError, 'CliError')
