import { spawnSync } from 'node:child_process'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { builtCli, createTempProject, ensureBuiltCli, runBuiltCli, type TempProject } from './support/built-cli.js'
import { hasSystemPart } from './support/system-requirement.js'

let project: TempProject
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject({
    'workspace/a.txt': 'alpha\n',
    'workspace/deep/b.txt': 'bravo bravo\n',
    'qilin.config.json': JSON.stringify({ workspace: './workspace' }),
  })
})
afterEach(() => project.dispose())

const run = (args: string[], input?: string) =>
  runBuiltCli(args, { cwd: project.directory, ...(input === undefined ? {} : { input }) })

describe('qilin-tools run', () => {
  it('runs a TypeScript program against the workspace and prints its output', async () => {
    project.write(
      'sizes.ts',
      [
        "import type { Anything } from './nowhere.js'",
        "const { files } = await tools.glob({ pattern: '**/*.txt' })",
        'const infos = await Promise.all(files.map((path: string) => tools.file_info({ path })))',
        'for (const info of infos) console.log(info.path, typeof info.size, info.size)',
        'return infos.length',
      ].join('\n'),
    )
    expect(await run(['run', 'sizes.ts'])).toEqual({
      code: 0,
      stdout: 'a.txt number 6\ndeep/b.txt number 12\n2\n',
      stderr: '',
    })
  })

  it.skipIf(!hasSystemPart('bubblewrap', 'qilin-tools run (Python)'))(
    'runs a Python program with the same tools',
    async () => {
      project.write(
        'sizes.py',
        [
          "found = await tools.glob(pattern='**/*.txt')",
          'for path in found["files"]:',
          '    info = await tools.file_info(path=path)',
          '    print(path, info["size"])',
        ].join('\n'),
      )
      expect(await run(['run', 'sizes.py'])).toEqual({ code: 0, stdout: 'a.txt 6\ndeep/b.txt 12\n', stderr: '' })
    },
  )

  it('reads the program from stdin with -', async () => {
    const result = await run(['run', '-'], "const text = await tools.read_file({ path: 'a.txt' })\nreturn text.content")
    expect(result).toMatchObject({ code: 0, stdout: 'alpha\n' })
  })

  it('reports sub-calls with codes and timings and what stayed out of the conversation with --json', async () => {
    const program = [
      "await tools.read_file({ path: 'a.txt' })",
      "try { await tools.read_file({ path: '../outside/secret.txt' }) } catch (error) { console.log(error.toolName) }",
      "return 'done'",
    ].join('\n')
    const result = await run(['run', '-', '--json'], program)
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report).toMatchObject({ ok: true, output: 'read_file\ndone', value: 'done' })
    expect(report.subCalls).toEqual([
      { id: 'cli-run:ptc:1', name: 'read_file', ok: true, durationMs: expect.any(Number) },
      { id: 'cli-run:ptc:2', name: 'read_file', ok: false, code: 'TOOL_ERROR', durationMs: expect.any(Number) },
    ])
    expect(report.keptOut.bytes).toBeGreaterThan(0)
    expect(report.keptOut.tokens).toBeGreaterThan(0)
  })

  it('never reaches outside the workspace, whatever path the program tries', async () => {
    project.link('workspace/escape', project.outside)
    const attempts = ['../outside/secret.txt', `${project.outside}/secret.txt`, 'escape/secret.txt']
    const program = `for (const path of ${JSON.stringify(attempts)}) {
  try { await tools.read_file({ path }); console.log('READ', path) } catch (error) { console.log('refused') }
}`
    expect(await run(['run', '-'], program)).toMatchObject({ code: 0, stdout: 'refused\nrefused\nrefused\n' })
  })

  it('fails with exit code 1 and one line on stderr when the program throws', async () => {
    const result = await run(['run', '-'], "console.log('before')\nthrow new Error('boom')")
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^qilin-tools: code run failed \(\w+\): .*boom.*\n$/)
    expect(result.stderr.split('\n')).toHaveLength(2)
    expect(result.stdout).toContain('before')
  })

  it('refuses a program whose language it cannot tell', async () => {
    project.write('program.rb', 'puts 1')
    expect(await run(['run', 'program.rb'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'qilin-tools: run: cannot tell the language of "program.rb" from its extension; pass --lang ts or --lang py\n',
    })
  })

  // util-linux `script` gives the CLI a terminal, as a person running it would.
  const hasScript = spawnSync('script', ['--version']).status === 0
  it.skipIf(!hasScript)('shows live progress and asks before bash when it runs on a terminal', () => {
    // The terminal is the subject here, not confinement (bash-tool.test.ts has that): run bash on the host.
    project.write('qilin.config.json', JSON.stringify({ workspace: './workspace', bash: { sandbox: 'none' } }))
    project.write(
      'program.ts',
      "await tools.read_file({ path: 'a.txt' })\nconst run = await tools.bash({ command: 'echo approved' })\nreturn run.stdout",
    )
    const command = `${process.execPath} --no-node-snapshot ${builtCli} run program.ts`
    const result = runBuiltCliOnTerminal(command, 'y\n')
    expect(result).toContain('run_code: 1 call settled · read_file ok')
    expect(result).toContain('Allow bash {"command":"echo approved"}? [y/N/a = always bash in this run]')
    expect(result).toContain('run_code: 2 calls settled · bash ok')
    expect(result).toMatch(/approved\r?\n/)
  })

  it.skipIf(!hasScript)('streams printed lines on a terminal as the program prints them, and prints each once', () => {
    project.write('qilin.config.json', JSON.stringify({ workspace: './workspace', bash: { sandbox: 'none' } }))
    project.write(
      'program.ts',
      "console.log('before the approval')\nconst run = await tools.bash({ command: 'echo approved' })\nconsole.log('after')\nreturn run.stdout.trim()",
    )
    const command = `${process.execPath} --no-node-snapshot ${builtCli} run program.ts`
    const result = runBuiltCliOnTerminal(command, 'y\n')
    const printed = result.indexOf('before the approval')
    const prompt = result.indexOf('Allow bash')
    // Shown while the program waits on the prompt, not only once it finished.
    expect(printed).toBeGreaterThanOrEqual(0)
    expect(prompt).toBeGreaterThan(printed)
    expect(result.split('before the approval')).toHaveLength(2)
    expect(result.split('after')).toHaveLength(2)
    expect(result).toMatch(/after\r?\n[\s\S]*approved\r?\n$/)
  })
})

/** Runs a command on a pseudo-terminal, typing `answer` a moment after it starts; returns what the terminal showed. */
function runBuiltCliOnTerminal(command: string, answer: string): string {
  const typed = `(sleep 2; printf '${answer}') | script -qec "${command}" /dev/null`
  return spawnSync('bash', ['-c', typed], { cwd: project.directory, encoding: 'utf8' }).stdout
}
