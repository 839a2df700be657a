// Generates the API reference (docs/api/) with TypeDoc from typedoc.json, naming each module by the specifier a user
// imports (`qilin-tools/providers`, `@qilin-tools/mcp`) as each package's exports map spells it.
//   node --import tsx scripts/api-reference.ts           writes docs/api/
//   node --import tsx scripts/api-reference.ts --check   regenerates in a temporary folder; fails if docs/api/ differs
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Application, Converter, type DeclarationReflection, ReflectionKind } from 'typedoc'
import { workspacePackages } from './workspace-packages.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const committed = join(root, 'docs', 'api')

function toPosix(path: string): string {
  return path.split(sep).join('/')
}

/** `packages/mcp/src/index.ts` → `@qilin-tools/mcp`: each public entry point of each package's exports map. */
function specifiersBySource(): Map<string, string> {
  const specifiers = new Map<string, string>()
  for (const workspace of workspacePackages()) {
    for (const entry of workspace.entryPoints) specifiers.set(toPosix(relative(root, entry.source)), entry.specifier)
  }
  return specifiers
}

async function generate(out: string): Promise<void> {
  const specifiers = specifiersBySource()
  const app = await Application.bootstrapWithPlugins({ options: join(root, 'typedoc.json'), out })
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection: DeclarationReflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName
    const source = file === undefined ? undefined : toPosix(relative(root, file))
    const specifier = source === undefined ? undefined : specifiers.get(source)
    if (specifier === undefined) throw new Error(`typedoc.json documents ${source}, which package.json does not export`)
    reflection.name = specifier
  })
  const project = await app.convert()
  if (project === undefined || app.logger.hasErrors()) throw new Error('TypeDoc could not convert the entry points')
  await app.generateOutputs(project)
  if (app.logger.hasErrors()) throw new Error('TypeDoc could not write the API reference')
  formatWithBiome(out)
}

/** Formats the Markdown as `npm run lint` expects it; VCS off, as the temporary folder lies outside the repository. */
function formatWithBiome(out: string): void {
  const biome = spawnSync(
    join(root, 'node_modules', '.bin', 'biome'),
    ['check', '--write', '--vcs-enabled=false', out],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
  if (biome.status !== 0) throw new Error(`Biome could not format ${out}:\n${biome.stdout}${biome.stderr}`)
}

function filesUnder(directory: string): Map<string, string> {
  const files = new Map<string, string>()
  let names: string[]
  try {
    names = readdirSync(directory, { recursive: true, encoding: 'utf8' })
  } catch {
    return files
  }
  for (const name of names.sort()) {
    const path = join(directory, name)
    try {
      files.set(toPosix(name), readFileSync(path, 'utf8'))
    } catch {
      // a folder
    }
  }
  return files
}

/** The paths (relative to docs/api/) that are missing, extra or different in `committed` compared with `fresh`. */
function differences(fresh: Map<string, string>, current: Map<string, string>): string[] {
  const found: string[] = []
  for (const [name, text] of fresh) {
    const old = current.get(name)
    if (old === undefined) found.push(`missing ${name}`)
    else if (old !== text) found.push(`changed ${name}`)
  }
  for (const name of current.keys()) if (!fresh.has(name)) found.push(`extra ${name}`)
  return found
}

async function check(): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), 'qilin-api-reference-'))
  try {
    await generate(scratch)
    const stale = differences(filesUnder(scratch), filesUnder(committed))
    if (stale.length === 0) return 0
    process.stderr.write(
      `docs/api/ is stale (${stale.length} file(s)); run \`npm run docs:api\` and commit it:\n  ${stale.join('\n  ')}\n`,
    )
    return 1
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

// TypeDoc sorts with localeCompare, which follows the environment's locale (Turkish orders i and I apart): pin one
// so every machine writes the same files.
const pinnedLocale = 'C.UTF-8'
const mode = process.argv[2]
if (process.env.LC_ALL !== pinnedLocale) {
  const rerun = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, LC_ALL: pinnedLocale },
    stdio: 'inherit',
  })
  process.exitCode = rerun.status ?? 1
} else if (mode !== undefined && mode !== '--check') {
  process.stderr.write(`unknown argument ${mode}; the only option is --check\n`)
  process.exitCode = 2
} else if (mode === '--check') {
  process.exitCode = await check()
} else {
  await generate(committed)
}
