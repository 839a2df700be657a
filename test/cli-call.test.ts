import { createRequire } from 'node:module'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTempProject, ensureBuiltCli, runBuiltCli, type TempProject } from './support/built-cli.js'

let project: TempProject
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject({ 'notes.txt': 'one\ntwo\n' })
})
afterEach(() => project.dispose())

const call = (...args: string[]) => runBuiltCli(['call', ...args], { cwd: project.directory })
const outsideMessage = /outside the workspace/

describe('qilin-tools call', () => {
  it('runs one call on the current directory when there is no config', async () => {
    expect(await call('read_file', '{"path":"notes.txt"}')).toEqual({ code: 0, stdout: '1\tone\n2\ttwo\n', stderr: '' })
  })

  it('prints the whole result with --json', async () => {
    const result = await call('file_info', '{"path":"notes.txt"}', '--json')
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      id: 'cli-call',
      name: 'file_info',
      ok: true,
      value: { path: 'notes.txt', type: 'file', size: 8 },
    })
  })

  it.each([
    ['..', '{"path":"../outside/secret.txt"}'],
    ['an absolute path', 'ABSOLUTE'],
    ['a symlink', '{"path":"escape/secret.txt"}'],
  ])('refuses an escape through %s with exit code 1 and one line', async (_how, args) => {
    project.link('escape', project.outside)
    const text = args === 'ABSOLUTE' ? JSON.stringify({ path: `${project.outside}/secret.txt` }) : args
    const result = await call('read_file', text)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(
      /^qilin-tools: read_file failed \(TOOL_ERROR\): path ".*" is outside the workspace.*\n$/,
    )
    expect(result.stderr).toMatch(outsideMessage)
  })

  it('never writes through a symlink that points out', async () => {
    project.link('escape', project.outside)
    const result = await call('write_file', '{"path":"escape/new.txt","content":"x"}')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(outsideMessage)
  })

  it('asks before bash and denies without a terminal, saying how to allow it', async () => {
    const result = await call('bash', '{"command":"echo hi"}')
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(
      'qilin-tools: bash failed (DENIED): bash needs approval and no terminal is attached to ask; allow it with "approve": { "bash": "allow" } in qilin.config.json\n',
    )
  })

  it('follows the approve policy of the config', async () => {
    // The policy is the subject here, not confinement (bash-tool.test.ts has that): run bash on the host.
    const config = { approve: { bash: 'allow', '*_file': 'deny' }, bash: { sandbox: 'none' } }
    project.write('qilin.config.json', JSON.stringify(config))
    expect(await call('bash', '{"command":"echo hi"}')).toMatchObject({ code: 0, stdout: 'exit code 0\nstdout:\nhi\n' })
    expect(await call('read_file', '{"path":"notes.txt"}')).toMatchObject({
      code: 1,
      stderr: 'qilin-tools: read_file failed (DENIED): calling read_file is not allowed by qilin.config.json\n',
    })
  })

  it('reports invalid arguments and unknown tools', async () => {
    expect(await call('read_file', '{"path":3}')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('INVALID_ARGUMENTS'),
    })
    expect(await call('nope')).toMatchObject({ code: 1, stderr: expect.stringContaining('UNKNOWN_TOOL') })
    expect(await call('read_file', '{nope')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^qilin-tools: call: the arguments are not valid JSON/),
    })
  })

  it('registers the tools of configured MCP servers', async () => {
    const memory = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js')
    project.write(
      'qilin.config.json',
      JSON.stringify({
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [memory],
            env: { MEMORY_FILE_PATH: `${project.directory}/m.jsonl` },
          },
        },
      }),
    )
    const result = await call('memory__read_graph', '{}', '--json')
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, name: 'memory__read_graph' })
  })
})
