import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CONFIG_FIELDS } from '@qilin-tools/cli/internal/config-fields.js'
import { type ConfigCatalogInput, configCatalog } from './docs/config-catalog.js'
import { configJsonSchema } from './docs/config-json-schema.js'
import { readOptionSections } from './docs/config-sections.js'
import { collectToolCatalog, type ToolCatalogInput, toolCatalog } from './docs/tool-catalog.js'

/** The repository root. */
export const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

export interface DocsInput {
  readonly config: ConfigCatalogInput
  readonly tools: ToolCatalogInput
}

/** Reads everything the generated docs are made from: the config table, the options interfaces, the tools. */
export async function collectDocsInput(root: string = REPOSITORY_ROOT): Promise<DocsInput> {
  return {
    config: { cliFields: CONFIG_FIELDS, sections: readOptionSections(root) },
    tools: await collectToolCatalog(),
  }
}

/** Each generated file's repository-relative path and its text. */
export function renderDocs(input: DocsInput): ReadonlyMap<string, string> {
  return new Map([
    ['docs/config-catalog.md', configCatalog(input.config)],
    ['docs/qilin.config.schema.json', `${JSON.stringify(configJsonSchema(input.config.cliFields), null, 2)}\n`],
    ['docs/tool-catalog.md', toolCatalog(input.tools)],
  ])
}

/** The generated files whose committed text differs from what the code gives now. */
export function staleDocs(rendered: ReadonlyMap<string, string>, root: string = REPOSITORY_ROOT): string[] {
  const committed = (path: string) => {
    try {
      return readFileSync(join(root, path), 'utf8')
    } catch {
      return undefined
    }
  }
  return [...rendered].filter(([path, text]) => committed(path) !== text).map(([path]) => path)
}

async function main(argv: readonly string[]): Promise<number> {
  const rendered = renderDocs(await collectDocsInput())
  if (argv.includes('--check')) {
    const stale = staleDocs(rendered)
    for (const path of stale) process.stderr.write(`${path} is stale: run npm run docs\n`)
    return stale.length === 0 ? 0 : 1
  }
  for (const [path, text] of rendered) writeFileSync(join(REPOSITORY_ROOT, path), text)
  process.stdout.write(`wrote ${[...rendered.keys()].join(', ')}\n`)
  return 0
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2))
}
