import { type CliCommand, COMMON_OPTIONS, type CommandOption } from './cli-command.js'

export function commandHelp(command: CliCommand): string {
  const options = { ...command.options, ...COMMON_OPTIONS }
  return [
    `Usage: qilin-tools ${command.name} ${command.usage}`,
    '',
    command.summary,
    '',
    'Options:',
    ...optionLines(options),
    ...(command.details === undefined ? [] : ['', ...command.details]),
    '',
  ].join('\n')
}

export function mainHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 2
  return [
    'Usage: qilin-tools <command> [options]',
    '',
    'The tool layer between a language model and its tools: run code-mode programs, serve tools over MCP,',
    'and show what the model sees.',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}${command.summary}`),
    '',
    'Options:',
    '  -h, --help     Show help (also after a command: qilin-tools run --help)',
    '  -v, --version  Print the version',
    '',
    'Without --config, qilin.config.json is read from the current directory (for run, first from the',
    "program's directory). Without a config, the workspace toolkit serves the current directory.",
    '',
  ].join('\n')
}

function optionLines(options: Record<string, CommandOption>): string[] {
  const labels = Object.entries(options).map(([name, option]) => {
    const short = option.short === undefined ? '    ' : `-${option.short}, `
    return [`${short}--${name}${option.value === undefined ? '' : ` <${option.value}>`}`, option.description] as const
  })
  const width = Math.max(...labels.map(([label]) => label.length)) + 2
  return labels.map(([label, description]) => `  ${label.padEnd(width)}${description}`)
}
