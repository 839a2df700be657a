import type { JsonObject } from '../json-schema/json-value.js'
import { RUN_CODE_TOOL_NAME } from '../ptc/ptc-port.js'
import { buildRuntime } from './build-runtime.js'
import type { CliCommand } from './cli-command.js'
import { CliError, ExitCode } from './cli-error.js'
import { loadConfig } from './load-config.js'
import { renderContent } from './render-content.js'

export const callCommand: CliCommand = {
  name: 'call',
  summary: 'Run one tool call through the pipeline and print the result',
  usage: "<tool> ['<json arguments>'] [options]",
  positionals: { min: 1, max: 2 },
  options: {
    json: { type: 'boolean', description: 'Print the whole result as JSON (content, value, error, timing)' },
  },
  details: [
    'Arguments default to {}. The call passes validation, the approve policy and the timeout like any model call.',
    'Example: qilin-tools call read_file \'{"path": "README.md", "limit": 5}\'',
  ],
  async execute({ positionals, values }, io) {
    const [name = '', argumentText = '{}'] = positionals
    const args = parseArguments(argumentText)
    const loaded = loadConfig(values.config as string | undefined, [io.cwd], io.cwd)
    const language = name === RUN_CODE_TOOL_NAME ? (loaded.config.language ?? 'typescript') : undefined
    const built = await buildRuntime(loaded, { mode: language === undefined ? 'native' : 'both', language }, io)
    try {
      const result = await built.runtime.execute({ id: 'cli-call', name, arguments: args }, { signal: io.stop })
      if (values.json === true) io.write(`${JSON.stringify(result, null, 2)}\n`)
      else if (result.ok) io.write(`${renderContent(result.content)}\n`)
      if (result.ok) return ExitCode.ok
      if (values.json !== true)
        io.error(`qilin-tools: ${name} failed (${result.error.code}): ${result.error.message}\n`)
      return ExitCode.failed
    } finally {
      await built.close()
    }
  },
}

function parseArguments(text: string): JsonObject {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new CliError(`call: the arguments are not valid JSON (${(error as Error).message})`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError('call: the arguments must be a JSON object, for example \'{"path": "README.md"}\'')
  }
  return value as JsonObject
}
