import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url))
export const builtCli = join(repositoryRoot, 'packages', 'cli', 'dist', 'main.js')
const lock = join(repositoryRoot, 'packages', 'cli', 'dist', '.cli-build.lock')

/**
 * The end-to-end tests spawn the compiled CLI. `npm test` builds before vitest runs; when a test file runs alone
 * and a package's `dist/` is missing or older than its `src/`, it builds once (other test files wait on the lock).
 */
export function ensureBuiltCli(): void {
  if (isFresh()) return
  mkdirSync(dirname(lock), { recursive: true })
  try {
    mkdirSync(lock)
  } catch {
    waitForBuild()
    return
  }
  try {
    // The same steps as `npm run build`: every package, bottom first, with the files runtimes read beside modules.
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repositoryRoot, encoding: 'utf8' })
    if (!existsSync(builtCli)) throw new Error(`building the CLI failed:\n${build.stdout}${build.stderr}`)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** Another test file is building: wait for its lock to go, for at most three minutes. */
function waitForBuild(): void {
  const pause = new Int32Array(new SharedArrayBuffer(4))
  const deadline = Date.now() + 180_000
  while (existsSync(lock)) {
    if (Date.now() > deadline) throw new Error(`${lock} is still held after 3 minutes; remove it if no build runs`)
    Atomics.wait(pause, 0, 0, 200)
  }
}

function isFresh(): boolean {
  if (!existsSync(builtCli)) return false
  const built = statSync(builtCli).mtimeMs
  const packages = join(repositoryRoot, 'packages')
  return readdirSync(packages).every((name) => newestSource(join(packages, name, 'src')) <= built)
}

function newestSource(directory: string): number {
  let newest = 0
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts') && !entry.name.includes('.test'))
      newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Spawns the built CLI the way its `#!` line does, and collects its output. */
export function runBuiltCli(
  args: readonly string[],
  options: { readonly cwd: string; readonly input?: string; readonly env?: Record<string, string> },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-node-snapshot', builtCli, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.input ?? '')
  })
}

export interface TempProject {
  readonly directory: string
  /** The sibling directory outside the workspace that escape attempts aim at. */
  readonly outside: string
  write(path: string, content: string): string
  link(path: string, target: string): void
  dispose(): void
}

/** A temporary project directory with `outside/secret.txt` beside it. */
export function createTempProject(files: Record<string, string> = {}): TempProject {
  const base = mkdtempSync(join(tmpdir(), 'qilin-cli-'))
  const directory = join(base, 'project')
  const outside = join(base, 'outside')
  mkdirSync(directory)
  mkdirSync(outside)
  writeFileSync(join(outside, 'secret.txt'), 'top secret\n')
  const write = (path: string, content: string) => {
    const absolute = join(directory, path)
    mkdirSync(dirname(absolute), { recursive: true })
    writeFileSync(absolute, content)
    return absolute
  }
  for (const [path, content] of Object.entries(files)) write(path, content)
  return {
    directory,
    outside,
    write,
    link: (path, target) => symlinkSync(target, join(directory, path)),
    dispose: () => rmSync(base, { recursive: true, force: true }),
  }
}
