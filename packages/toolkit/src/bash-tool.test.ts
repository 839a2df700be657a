import { realpathSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { homedir } from 'node:os'
import type { ToolExecution } from 'qilin-tools/internal/definition/tool-definition.js'
import { isInvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { isToolError } from 'qilin-tools/internal/errors/tool-error.js'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { hostProcessCount, hostProcessesMatching } from './__fixtures__/host-processes.js'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'
import { type BashToolOptions, type BashValue, bashTool } from './bash-tool.js'
import { openWorkspace } from './workspace.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace({ 'hello.txt': 'hi\n' })
})
afterEach(() => workspace.dispose())

function execution(overrides: Partial<ToolExecution> = {}): ToolExecution {
  const base = { signal: new AbortController().signal, callId: 'c', toolName: 'bash', agentId: undefined }
  return { ...base, correlationId: 'c', escalated: false, ...overrides }
}

/** Runs the real tool body with `options`, as the pipeline would. */
async function bash(command: string, options: BashToolOptions = {}, exec = execution()): Promise<BashValue> {
  const tool = bashTool(openWorkspace(workspace.root), options)
  return (await tool.execute({ command }, exec)) as BashValue
}

/** A loopback server that counts connections, for the network probes. */
let server: Server
let port = 0
let connections = 0
beforeAll(async () => {
  server = createServer((socket) => {
    connections++
    socket.end('pong\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const connect = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && head -n 1 <&3`

describe.skipIf(!hasSystemPart('bubblewrap', 'bash confinement'))('bash, confined by bubblewrap', () => {
  it('runs in the workspace root, which it can read and write', async () => {
    expect(await bash('pwd; cat hello.txt; echo made > made.txt; echo oops >&2; exit 3')).toEqual({
      exitCode: 3,
      stdout: `${realpathSync(workspace.root)}\nhi\n`,
      stderr: 'oops\n',
      timedOut: false,
      truncated: false,
      sandbox: 'bubblewrap',
    })
    expect(await workspace.run('read_file', { path: 'made.txt' })).toMatchObject({ content: 'made' })
  })

  it('cannot read a secret outside the workspace, nor see $HOME or other users', async () => {
    const run = await bash(`cat ${workspace.outside}/secret.txt; ls -A ${homedir()}; ls /home /root; cat /etc/shadow`)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(`${workspace.outside}/secret.txt: No such file or directory`)
    expect(run.stderr).toContain(`${homedir()}': No such file or directory`)
    expect(run.stderr).toContain("'/home': No such file or directory")
    expect(run.stderr).toContain('/etc/shadow: No such file or directory')
    expect(run.exitCode).not.toBe(0)
  })

  it('cannot write outside the workspace: the system is read-only', async () => {
    const run = await bash('touch /usr/qilin-probe; echo $?')
    expect(run.stdout).toBe('1\n')
    expect(run.stderr).toContain('Read-only file system')
  })

  it('sees none of the host environment, not even through /proc of other processes', async () => {
    process.env.QILIN_TEST_SECRET = 'hunter2-from-the-host'
    try {
      const run = await bash(
        'echo "[$QILIN_TEST_SECRET]"; cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | grep -c hunter2; ls /proc | grep -c "^[0-9]"',
      )
      const [echoed, found, processes = '0'] = run.stdout.trim().split('\n')
      expect(echoed).toBe('[]')
      expect(found).toBe('0')
      // Its own pid namespace: only the sandbox's few processes are listed.
      expect(Number(processes)).toBeLessThan(10)
    } finally {
      delete process.env.QILIN_TEST_SECRET
    }
  })

  it('passes through exactly the host variables the options name', async () => {
    process.env.QILIN_TEST_PASSED = 'passed'
    process.env.QILIN_TEST_SECRET = 'kept'
    try {
      const run = await bash('echo "$QILIN_TEST_PASSED/$QILIN_TEST_SECRET"', { env: ['QILIN_TEST_PASSED'] })
      expect(run.stdout).toBe('passed/\n')
    } finally {
      delete process.env.QILIN_TEST_PASSED
      delete process.env.QILIN_TEST_SECRET
    }
  })

  it('has no network by default, and has it with network: true', async () => {
    const before = connections
    const refused = await bash(connect())
    expect(refused.exitCode).not.toBe(0)
    expect(refused.stdout).toBe('')
    expect(connections).toBe(before)
    const allowed = await bash(connect(), { network: true })
    expect(allowed).toMatchObject({ exitCode: 0, stdout: 'pong\n' })
    expect(connections).toBe(before + 1)
  })

  it('leaves no background process behind once the call ends', async () => {
    const run = await bash('sleep 313.25 & disown; nohup sleep 313.5 >/dev/null 2>&1 & echo started')
    expect(run.stdout).toBe('started\n')
    expect(hostProcessesMatching('sleep 313.')).toEqual([])
  })

  it('kills the whole tree at the deadline', async () => {
    const started = Date.now()
    const run = await bash('sleep 314.25 & echo started; sleep 314.5', { timeoutMs: 300 })
    expect(run).toMatchObject({ exitCode: null, stdout: 'started\n', timedOut: true })
    expect(Date.now() - started).toBeLessThan(5000)
    expect(hostProcessesMatching('sleep 314.')).toEqual([])
  })

  it('kills the whole tree when the call is cancelled', async () => {
    const controller = new AbortController()
    const reason = new Error('cancelled by the test')
    setTimeout(() => controller.abort(reason), 300)
    const running = bash('sleep 315.25 & sleep 315.5', {}, execution({ signal: controller.signal }))
    await expect(running).rejects.toBe(reason)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(hostProcessesMatching('sleep 315.')).toEqual([])
  })

  it('bounds a fork bomb in process count and time, and the host stays responsive', async () => {
    const baseline = hostProcessCount()
    let peak = baseline
    let ticks = 0
    let lastTick = Date.now()
    let longestGapMs = 0
    const sampler = setInterval(() => {
      ticks++
      longestGapMs = Math.max(longestGapMs, Date.now() - lastTick)
      lastTick = Date.now()
      peak = Math.max(peak, hostProcessCount())
    }, 25)
    const started = Date.now()
    const run = await bash('bomb() { while :; do bomb & done; }; bomb', {
      timeoutMs: 2000,
      limits: { processes: 48 },
    }).finally(() => clearInterval(sampler))
    // The limit was reached, and held: forks failed instead of the host filling up.
    expect(run.stderr).toContain('fork: retry: Resource temporarily unavailable')
    expect(Date.now() - started).toBeLessThan(6000)
    // bubblewrap's own processes and the shell wrapper sit beside the budgeted 48.
    expect(peak - baseline).toBeLessThan(48 + 16)
    expect(run.timedOut).toBe(true)
    // The host's event loop kept turning throughout (a generous bound: the machine is shared).
    expect(ticks).toBeGreaterThan(20)
    expect(longestGapMs).toBeLessThan(1000)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(hostProcessCount() - baseline).toBeLessThan(8)
    expect(await bash('echo alive')).toMatchObject({ stdout: 'alive\n' })
  }, 15_000)

  it('runs under the shell seccomp filter: no new namespaces from inside', async () => {
    const run = await bash('grep Seccomp: /proc/self/status; unshare --user true && echo ESCAPED')
    expect(run.stdout).toBe('Seccomp:\t2\n')
    expect(run.stderr).toContain('Operation not permitted')
  })

  it('fails a command too large to start as a result, and the host carries on', async () => {
    const huge = `echo ${'x'.repeat(4 * 1024 * 1024)}`
    const failure = await bash(huge).catch((error: unknown) => error)
    expect(isToolError(failure)).toBe(true)
    expect((failure as Error).message).toMatch(
      /^the command could not start: .*E2BIG.*\(the command line is too long\)$/,
    )
    expect(await bash('echo alive')).toMatchObject({ stdout: 'alive\n' })
  })

  it('keeps the output caps', async () => {
    const run = await bash('head -c 200000 /dev/zero | tr "\\0" a')
    expect(run.truncated).toBe(true)
    expect(run.stdout.length).toBe(64 * 1024)
  })

  it('makes the named extra paths writable, and no others', async () => {
    const run = await bash(`echo extra > ${workspace.outside}/note.txt && cat ${workspace.outside}/secret.txt`, {
      writablePaths: [workspace.outside],
    })
    expect(run).toMatchObject({ exitCode: 0, stdout: 'secret\n' })
  })

  it('widens to the escalation profile only for an escalated call', async () => {
    const options: BashToolOptions = { escalation: { network: true, writablePaths: [workspace.outside] } }
    const plain = await bash(`${connect()}; touch ${workspace.outside}/x`, options)
    expect(plain.stdout).toBe('')
    expect(plain.stderr).toContain('No such file or directory')
    const escalated = await bash(
      `${connect()} && touch ${workspace.outside}/x && echo wrote`,
      options,
      execution({ escalated: true }),
    )
    expect(escalated).toMatchObject({ exitCode: 0, stdout: 'pong\nwrote\n' })
  })

  it('gives an escalated call the default profile when no escalation is configured', async () => {
    const run = await bash(connect(), {}, execution({ escalated: true }))
    expect(run.exitCode).not.toBe(0)
    expect(run.stdout).toBe('')
  })
})

describe('bash without confinement', () => {
  it('fails each call with the package to install when bubblewrap is missing, and the host carries on', async () => {
    const options = { bubblewrap: '/nonexistent/qilin/bwrap' }
    const failure = await bash('echo hi', options).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(isToolError(failure)).toBe(true)
    expect((failure as Error).message).toContain('/nonexistent/qilin/bwrap is not installed')
    expect((failure as Error).message).toContain('apt-get install bubblewrap')
    expect((failure as Error).message).toContain('"sandbox": "none"')
    expect(await workspace.run('read_file', { path: 'hello.txt' })).toMatchObject({ content: 'hi' })
  })

  it('fails each call with what bubblewrap said when it is installed but cannot make a sandbox', async () => {
    const failure = await bash('echo hi', { bubblewrap: '/bin/false' }).catch((error: unknown) => error)
    expect(isToolError(failure)).toBe(true)
    expect((failure as Error).message).toMatch(/^bash cannot run confined: \/bin\/false could not start a sandbox \(/)
    expect((failure as Error).message).toContain('allow unprivileged user namespaces')
  })

  it("says sandbox: 'none' in every result when opted out, and runs on the host", async () => {
    process.env.QILIN_TEST_SECRET = 'visible-unconfined'
    try {
      const run = await bash('echo "$QILIN_TEST_SECRET"; exit 2', { sandbox: 'none' })
      expect(run).toMatchObject({ exitCode: 2, stdout: 'visible-unconfined\n', sandbox: 'none' })
    } finally {
      delete process.env.QILIN_TEST_SECRET
    }
  })

  it('still kills background processes when the call ends', async () => {
    const run = await bash('sleep 316.25 & echo started', { sandbox: 'none' })
    expect(run.stdout).toBe('started\n')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(hostProcessesMatching('sleep 316.')).toEqual([])
  })

  it('refuses a relative writable path at creation', () => {
    let thrown: unknown
    try {
      bashTool(openWorkspace(workspace.root), { writablePaths: ['relative/dir'] })
    } catch (error) {
      thrown = error
    }
    expect(isInvalidArgumentError(thrown)).toBe(true)
    expect((thrown as Error).message).toBe('bash writablePaths must be absolute, got "relative/dir"')
  })
})

describe('bash through the toolkit', () => {
  it('is exclusive and asks for approval by default', () => {
    const tool = workspace.toolkit.tools.find((candidate) => candidate.name === 'bash')
    expect(tool?.executionMode).toBe('exclusive')
    expect(workspace.toolkit.approvals).toEqual({ bash: 'ask' })
  })
})
