import { callCommand } from './call-command.js'
import type { CliCommand } from './cli-command.js'
import { inspectCommand } from './inspect-command.js'
import { runCommand } from './run-command.js'
import { sdkCommand } from './sdk-command.js'
import { serveCommand } from './serve-command.js'

/** Every `qilin-tools` command, in the order `--help` lists them. */
export const COMMANDS: readonly CliCommand[] = [runCommand, serveCommand, sdkCommand, callCommand, inspectCommand]
