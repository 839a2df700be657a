import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createTempProject,
  ensureBuiltCli,
  repositoryRoot,
  runBuiltCli,
  type TempProject,
} from './support/built-cli.js'

let project: TempProject
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject({ 'a.txt': 'a' })
})
afterEach(() => project.dispose())

const cli = (...args: string[]) => runBuiltCli(args, { cwd: project.directory })

describe('qilin-tools conventions', () => {
  it('prints the version of the package', async () => {
    const { version } = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { version: string }
    expect(await cli('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it.each(['run', 'serve', 'sdk', 'call', 'inspect'])('has --help for %s', async (command) => {
    const result = await cli(command, '--help')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(new RegExp(`^Usage: qilin-tools ${command} `))
    expect(result.stdout).toContain('--config <file>')
  })

  it('lists every command in the main help', async () => {
    const result = await cli('--help')
    expect(result.code).toBe(0)
    for (const command of ['run', 'serve', 'sdk', 'call', 'inspect']) expect(result.stdout).toContain(`\n  ${command} `)
  })

  it.each([
    [[], 'qilin-tools: missing command; see qilin-tools --help'],
    [
      ['deploy'],
      'qilin-tools: unknown command "deploy" (commands: run, serve, sdk, call, inspect); see qilin-tools --help',
    ],
    [['sdk', '--frob'], "qilin-tools: sdk: unknown option '--frob'; see qilin-tools sdk --help"],
    [
      ['run'],
      'qilin-tools: run: expected 1 argument (<file.ts | file.py | -> [options]), got 0; see qilin-tools run --help',
    ],
    [['serve', '--http', 'eighty'], 'qilin-tools: serve: --http needs a port number from 0 to 65535 (got "eighty")'],
    [['sdk', '--mode', 'all'], 'qilin-tools: sdk: --mode must be native, ptc or both (got "all")'],
    [
      ['inspect', 'a.txt', '--port', '80x'],
      'qilin-tools: inspect: --port needs a port number from 0 to 65535 (got "80x")',
    ],
    [['inspect', 'missing.jsonl'], 'qilin-tools: inspect: missing.jsonl is not a file'],
  ])('ends a usage error %j with exit code 2 and one line', async (args, line) => {
    expect(await cli(...args)).toEqual({ code: 2, stdout: '', stderr: `${line}\n` })
  })
})

describe('qilin-tools configuration errors', () => {
  it.each([
    ['{ "mode": "native",', /: not valid JSON \(/],
    [JSON.stringify({ mode: 'sometimes' }), /: "mode" must be one of native, ptc, both \(got "sometimes"\)$/],
    [JSON.stringify({ mcpServers: { memory: { args: ['x'] } } }), /: "mcpServers.memory.command" is required$/],
    [
      JSON.stringify({ approve: { bash: 'maybe' } }),
      /: "approve.bash" must be one of ask, allow, deny \(got "maybe"\)$/,
    ],
    [JSON.stringify({ workspace: './missing' }), /: "workspace": workspace root .*missing does not exist$/],
  ])('names the file and the field for %s', async (text, message) => {
    const file = project.write('qilin.config.json', text)
    const result = await cli('call', 'file_info', '{"path":"a.txt"}')
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    const [line, ...rest] = result.stderr.split('\n')
    expect(rest).toEqual([''])
    expect(line?.startsWith(`qilin-tools: ${file}`)).toBe(true)
    expect(line).toMatch(message)
  })

  it('names a --config file that does not exist', async () => {
    expect(await cli('sdk', '--config', 'other.json')).toEqual({
      code: 2,
      stdout: '',
      stderr: `qilin-tools: cannot read config ${join(project.directory, 'other.json')}: no such file\n`,
    })
  })

  it('reports an MCP server that cannot start as one warning line, and runs the call without it', async () => {
    project.write('qilin.config.json', JSON.stringify({ mcpServers: { broken: { command: 'qilin-no-such-binary' } } }))
    const result = await cli('call', 'file_info', '{"path":"a.txt"}')
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/^qilin-tools: qilin\.config\.json: mcpServers\.broken skipped: .*ENOENT.*\n$/)
  })
})
