// `npm run build`: compiles each workspace package from its src/ into its dist/, in dependency order, each against
// the built declarations of the packages below it (found through the workspace links in node_modules). Then it copies
// the files a built runtime reads beside its modules (the Python runner, the inspector's page), bundles re2js into the core, and removes
// from each dist/ what no current build input produced, so each package ships exactly its library.
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, posix, relative, sep } from 'node:path'
import { transformSync } from 'esbuild'
import ts from 'typescript'

const root = new URL('..', import.meta.url).pathname

/** The root package.json lists the workspaces bottom first: a package builds after every package it imports. */
const BUILD_ORDER = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces.map((folder) =>
  folder.replace(/^packages\//, ''),
)

/** Fixtures are test input, wherever they sit; nothing under them is built or copied. */
const isFixture = (path) => path.split(sep).includes('__fixtures__')

function buildInputs(packageRoot) {
  const configPath = join(packageRoot, 'tsconfig.build.json')
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile)
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'))
  return ts.parseJsonConfigFileContent(config, ts.sys, packageRoot, undefined, configPath).fileNames
}

/** Served or run as written: the Python runner, and the inspector's page (plain HTML, CSS and ES modules). */
function isRuntimeFile(source, path) {
  const page = join(source, 'inspect', 'page') + sep
  return path.endsWith('.py') || (path.startsWith(page) && /\.(html|css|js)$/.test(path))
}

function copyRuntimeFiles(source, target, directory, kept) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name)
    if (isFixture(path)) continue
    if (entry.isDirectory()) copyRuntimeFiles(source, target, path, kept)
    else if (isRuntimeFile(source, path)) {
      const destination = join(target, relative(source, path))
      mkdirSync(dirname(destination), { recursive: true })
      copyFileSync(path, destination)
      kept.add(destination)
    }
  }
}

function prune(directory, kept) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    // Dot entries are not build output (the test build lock is dist/.cli-build.lock) and npm does not pack them.
    if (entry.name.startsWith('.')) continue
    const path = join(directory, entry.name)
    if (entry.isDirectory()) {
      prune(path, kept)
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true })
    } else if (!kept.has(path)) rmSync(path)
  }
}

/**
 * The core has no runtime dependencies: re2js (pure JavaScript, MIT) is copied into dist/vendor/re2js/ with its
 * licence, and the built modules that import `re2js` import that copy by a relative path instead.
 */
function vendorRe2js(target, kept) {
  const require = createRequire(join(root, 'package.json'))
  // re2js exports no package.json: its package folder is the one above its build/.
  const from = dirname(dirname(require.resolve('re2js')))
  const vendor = join(target, 'vendor', 're2js')
  mkdirSync(vendor, { recursive: true })
  const importers = [...kept].filter((path) => /\.(js|d\.ts)$/.test(path) && existsSync(path))
  const typed = importers.some((path) => path.endsWith('.d.ts') && readFileSync(path, 'utf8').includes("from 're2js'"))
  // Its declarations ship only when a declaration of ours names one of its types.
  const files = [
    ['build/index.js', 'index.js'],
    ['LICENSE', 'LICENSE'],
    ...(typed ? [['build/index.d.ts', 'index.d.ts']] : []),
  ]
  for (const [file, as] of files) {
    copyFileSync(join(from, file), join(vendor, as))
    kept.add(join(vendor, as))
  }
  // Minified, its licence comment kept: the core's installed size stays under 1 MB with it.
  const bundle = join(vendor, 'index.js')
  writeFileSync(bundle, esmOf(readFileSync(bundle, 'utf8'), { minify: true }))
  for (const path of importers) {
    const text = readFileSync(path, 'utf8')
    if (!/from 're2js'/.test(text)) continue
    let specifier = posix.relative(posix.dirname(path), posix.join(vendor, 'index.js'))
    if (!specifier.startsWith('.')) specifier = `./${specifier}`
    writeFileSync(path, text.replaceAll("from 're2js'", `from '${specifier}'`))
  }
}

/** Reprinted by esbuild as ES2023 modules for Node 20; legal comments stay where they are. */
function esmOf(text, options = {}) {
  return transformSync(text, { format: 'esm', target: 'node20', legalComments: 'inline', ...options }).code
}

/**
 * The core's modules ship without comments: the declarations beside them keep every doc comment for editors, and
 * the package stays under 1 MB installed.
 */
function stripComments(kept) {
  for (const path of kept) {
    if (path.endsWith('.js') && !path.includes(`${sep}vendor${sep}`) && existsSync(path)) {
      writeFileSync(path, esmOf(readFileSync(path, 'utf8')))
    }
  }
}

// `--no-compile` redoes only the copying, vendoring and pruning, over what an earlier compile left in dist/.
const compile = !process.argv.includes('--no-compile')
const only = process.argv.slice(2).filter((argument) => !argument.startsWith('--'))
for (const name of BUILD_ORDER) {
  if (only.length > 0 && !only.includes(name)) continue
  const packageRoot = join(root, 'packages', name)
  const source = join(packageRoot, 'src')
  const target = join(packageRoot, 'dist')
  if (compile) {
    execFileSync(process.execPath, [typescriptCompiler(), '-p', join(packageRoot, 'tsconfig.build.json')], {
      cwd: packageRoot,
      stdio: 'inherit',
    })
  }
  const kept = new Set()
  for (const input of buildInputs(packageRoot)) {
    const stem = join(target, relative(source, input)).replace(/\.ts$/, '')
    for (const suffix of ['.js', '.d.ts']) kept.add(stem + suffix)
  }
  copyRuntimeFiles(source, target, source, kept)
  if (name === 'core') {
    vendorRe2js(target, kept)
    stripComments(kept)
  }
  prune(target, kept)
}

function typescriptCompiler() {
  return createRequire(import.meta.url).resolve('typescript/bin/tsc')
}
