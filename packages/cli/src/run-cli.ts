import { readFileSync } from 'node:fs'
import { type ParseArgsConfig, parseArgs } from 'node:util'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import { type CliCommand, type CliIo, COMMON_OPTIONS, type CommandOption } from './cli-command.js'
import { CliError, ExitCode } from './cli-error.js'
import { commandHelp, mainHelp } from './help-text.js'

/** Runs one command line; every failure ends as one line on stderr (plus a stack trace under `--debug`). */
export async function runCli(argv: readonly string[], io: CliIo, commands: readonly CliCommand[]): Promise<ExitCode> {
  const [name, ...rest] = argv
  const debug = argv.includes('--debug')
  try {
    if (name === '--help' || name === '-h' || name === 'help') {
      io.write(mainHelp(commands))
      return ExitCode.ok
    }
    if (name === '--version' || name === '-v') {
      io.write(`${packageVersion()}\n`)
      return ExitCode.ok
    }
    if (name === undefined) throw new CliError('missing command; see qilin-tools --help')
    const command = commands.find((candidate) => candidate.name === name)
    if (command === undefined) {
      const known = commands.map((candidate) => candidate.name).join(', ')
      throw new CliError(`unknown command "${name}" (commands: ${known}); see qilin-tools --help`)
    }
    const commandLine = parseCommandLine(command, rest)
    if (commandLine.values.help === true) {
      io.write(commandHelp(command))
      return ExitCode.ok
    }
    return await command.execute(commandLine, io)
  } catch (error) {
    io.error(`qilin-tools: ${thrownMessage(error)}\n`)
    if (debug && error instanceof Error && error.stack !== undefined) io.error(`${error.stack}\n`)
    return error instanceof CliError ? error.exitCode : ExitCode.failed
  }
}

function parseCommandLine(command: CliCommand, args: readonly string[]) {
  const options: NonNullable<ParseArgsConfig['options']> = {}
  const all: Record<string, CommandOption> = { ...command.options, ...COMMON_OPTIONS }
  for (const [name, option] of Object.entries(all)) {
    options[name] = option.short === undefined ? { type: option.type } : { type: option.type, short: option.short }
  }
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true })
  } catch (error) {
    const sentence = (error as Error).message.split('. ')[0] ?? ''
    throw new CliError(
      `${command.name}: ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}; see qilin-tools ${command.name} --help`,
    )
  }
  const { positionals, values } = parsed
  if (values.help !== true) {
    const { min, max } = command.positionals
    if (positionals.length < min || positionals.length > max) {
      const expected = min === max ? `${min}` : `${min} to ${max}`
      throw new CliError(
        `${command.name}: expected ${expected} argument${max === 1 ? '' : 's'} (${command.usage}), got ${positionals.length}; see qilin-tools ${command.name} --help`,
      )
    }
  }
  return { positionals, values: values as Record<string, string | boolean | undefined> }
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return manifest.version
}
