import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { CliError } from './cli-error.js'
import type { LoadedConfig } from './config.js'
import { parseConfig } from './parse-config.js'

export const CONFIG_FILE_NAME = 'qilin.config.json'

/**
 * The config in force: `--config` when given, else the first `qilin.config.json` in `searchDirectories`,
 * else the built-in default (the workspace toolkit on `cwd`).
 */
export function loadConfig(
  explicit: string | undefined,
  searchDirectories: readonly string[],
  cwd: string,
): LoadedConfig {
  const file =
    explicit === undefined
      ? searchDirectories.map((directory) => join(directory, CONFIG_FILE_NAME)).find((path) => existsSync(path))
      : resolve(cwd, explicit)
  if (file === undefined) return { file: undefined, directory: cwd, config: {} }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const reason = (error as { code?: string }).code === 'ENOENT' ? 'no such file' : (error as Error).message
    throw new CliError(`cannot read config ${file}: ${reason}`)
  }
  return { file, directory: dirname(file), config: parseConfig(text, file) }
}
