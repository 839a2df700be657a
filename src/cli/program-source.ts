import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import type { Readable } from 'node:stream'
import type { PtcLanguage } from '../ptc/ptc-port.js'
import { CliError } from './cli-error.js'

const LANGUAGES: Readonly<Record<string, PtcLanguage>> = {
  ts: 'typescript',
  typescript: 'typescript',
  js: 'typescript',
  py: 'python',
  python: 'python',
}

const EXTENSIONS: Readonly<Record<string, PtcLanguage>> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.js': 'typescript',
  '.mjs': 'typescript',
  '.py': 'python',
}

/**
 * Module-level lines an editor needs but a function body cannot hold: `import type …`, `export type …` and a bare
 * `export {}` (which makes a file a module, so top-level `await` type-checks). Blanked, so line numbers hold.
 */
const MODULE_ONLY_LINE =
  /^[ \t]*(?:import[ \t]+type[ \t][^\n]*|export[ \t]+type[ \t][^\n]*|export[ \t]*\{[ \t]*\};?)[ \t]*$/gm

export interface ProgramSource {
  readonly code: string
  readonly language: PtcLanguage
}

/** Reads a program from a file or, for `-`, from stdin; the language comes from `--lang` or the file extension. */
export async function readProgram(path: string, lang: string | undefined, stdin: Readable): Promise<ProgramSource> {
  const language = languageOf(path, lang)
  const text = path === '-' ? await readAll(stdin) : await readFileText(path)
  return { code: language === 'typescript' ? text.replace(MODULE_ONLY_LINE, '') : text, language }
}

function languageOf(path: string, lang: string | undefined): PtcLanguage {
  if (lang !== undefined) {
    const language = LANGUAGES[lang]
    if (language === undefined) throw new CliError(`run: --lang must be ts or py (got "${lang}")`)
    return language
  }
  if (path === '-') return 'typescript'
  const language = EXTENSIONS[extname(path)]
  if (language === undefined) {
    throw new CliError(`run: cannot tell the language of "${path}" from its extension; pass --lang ts or --lang py`)
  }
  return language
}

async function readFileText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as { code?: string }).code
    throw new CliError(`run: cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`)
  }
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}
