import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { seccompRemedy } from '../../sandbox/seccomp-support.js'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { type ConfinementLayer, ConfinementUnavailableError, planConfinement } from './confinement.js'
import { createPythonPtcRuntime } from './create-python-ptc-runtime.js'

/**
 * Each confinement layer on its own: what it blocks, and (as a control) something only another layer blocks,
 * so a test fails if a layer silently stops working while the others still cover for it.
 */
const secret = `layer-secret-${process.pid}`
let hostDirectory: string
let server: Server
let port = 0
let connections = 0
let sentinel: ChildProcess

beforeAll(async () => {
  hostDirectory = mkdtempSync(join(tmpdir(), 'qilin-layers-'))
  writeFileSync(join(hostDirectory, 'secret.txt'), secret)
  server = createServer((socket) => {
    connections++
    socket.end('hello')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
  sentinel = spawn('sleep', ['60'], { stdio: 'ignore' })
})

afterAll(() => {
  server.close()
  sentinel.kill('SIGKILL')
  rmSync(hostDirectory, { recursive: true, force: true })
})

async function runWith(layers: readonly ConfinementLayer[], code: string, fileBytes?: number): Promise<PtcRunOutcome> {
  const runtime = createPythonPtcRuntime({ layers, poolSize: 0, ...(fileBytes === undefined ? {} : { fileBytes }) })
  try {
    return await runtime.run(fakeRunRequest(code))
  } finally {
    await runtime.close()
  }
}

/** What one statement did: `ok <value>` or the exception class name. */
function attempt(statement: string): string {
  return `try:\n    result = ${statement}\n    print('ok', result)\nexcept BaseException as error:\n    print(type(error).__name__)`
}

const readSecret = () => attempt(`open(${JSON.stringify(join(hostDirectory, 'secret.txt'))}).read()`)
const writeHost = () => attempt(`open(${JSON.stringify(join(hostDirectory, 'written'))}, 'w').write('x')`)
const connect = () => attempt(`__import__('socket').create_connection(('127.0.0.1', ${port}), timeout=2).recv(5)`)
const signalSentinel = () => attempt(`__import__('os').kill(${sentinel.pid}, 0)`)
const forkAndReap = () =>
  attempt(`(lambda os: (lambda pid: os._exit(0) if pid == 0 else os.waitpid(pid, 0)[1])(os.fork()))(__import__('os'))`)

function thrown(action: () => unknown): unknown {
  try {
    action()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

function outputOf(outcome: PtcRunOutcome): string {
  return outcome.ok
    ? outcome.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    : outcome.error.message
}

describe.skipIf(!hasSystemPart('bubblewrap', 'Python confinement: bubblewrap alone'))('bubblewrap alone', () => {
  it('hides host files, has no network, and runs in its own pid namespace', async () => {
    const code = [readSecret(), connect(), attempt(`__import__('os').getpid() < 10`)].join('\n')
    const outcome = await runWith(['bubblewrap'], code)
    expect(outputOf(outcome).split('\n')).toEqual(['FileNotFoundError', expect.stringMatching(/Error$/), 'ok True'])
  })

  it('leaves process creation to the other layers (control)', async () => {
    expect(outputOf(await runWith(['bubblewrap'], forkAndReap()))).toBe('ok 0')
  })

  it('says it is a partial sandbox in the metadata', async () => {
    const outcome = await runWith(['bubblewrap'], 'pass')
    expect(outcome.metadata.sandbox).toEqual({ profile: 'partial', layers: ['bubblewrap'] })
  })
})

describe('Landlock alone', () => {
  it('refuses host files, writes outside the work directory, TCP and signals', async () => {
    const code = [readSecret(), writeHost(), connect(), signalSentinel(), attempt(`open('inside.txt', 'w').write('x')`)]
    const outcome = await runWith(['landlock'], code.join('\n'))
    expect(outputOf(outcome).split('\n')).toEqual([
      'PermissionError',
      'PermissionError',
      'PermissionError',
      'PermissionError',
      'ok 1',
    ])
  })

  it('leaves process creation to the other layers (control)', async () => {
    expect(outputOf(await runWith(['landlock'], forkAndReap()))).toBe('ok 0')
  })
})

describe('seccomp alone', () => {
  it('refuses new processes, sockets and signals to other processes', async () => {
    const code = [forkAndReap(), connect(), signalSentinel(), attempt(`__import__('socket').socketpair()`)]
    const outcome = await runWith(['seccomp'], code.join('\n'))
    expect(outputOf(outcome).split('\n')).toEqual([
      'PermissionError',
      'PermissionError',
      'PermissionError',
      'PermissionError',
    ])
  })

  it('leaves files to the other layers (control)', async () => {
    expect(outputOf(await runWith(['seccomp'], readSecret()))).toBe(`ok ${secret}`)
  })

  it.skipIf(!hasSystemPart('bubblewrap', 'Python confinement: seccomp inside bubblewrap'))(
    "lets a program signal itself, by its pid in bubblewrap's pid namespace too",
    async () => {
      const signalItself = attempt(`__import__('os').kill(__import__('os').getpid(), 0)`)
      expect(outputOf(await runWith(['seccomp'], signalItself))).toBe('ok None')
      expect(outputOf(await runWith(['bubblewrap', 'seccomp'], [signalItself, signalSentinel()].join('\n')))).toBe(
        'ok None\nPermissionError',
      )
    },
  )

  it('still lets a program start threads (clone3 falls back to clone)', async () => {
    const code = `import threading\nbox = []\nthread = threading.Thread(target=lambda: box.append(7))\nthread.start()\nthread.join()\nreturn box`
    const outcome = await runWith(['seccomp'], code)
    expect(outcome.ok && outcome.value).toEqual([7])
  })
})

describe('a missing seccomp layer', () => {
  it('is named with what to do, and no Python package is asked for', () => {
    const probed = { available: [], missing: { seccomp: 'the kernel reports no seccomp support' } }
    const error = thrown(() => planConfinement('full', probed, ['seccomp']))
    expect(error).toBeInstanceOf(ConfinementUnavailableError)
    expect((error as Error).message).toContain(`- seccomp: the kernel reports no seccomp support; ${seccompRemedy}\n`)
    expect((error as Error).message).not.toMatch(/python3-seccomp|apt-get/)
  })
})

describe('resource limits alone', () => {
  it('stop a memory bomb', async () => {
    const outcome = await runWith(['rlimits'], `chunks = []\nwhile True:\n    chunks.append(bytearray(1 << 26))`)
    expect(outputOf(outcome)).toMatch(/^code run failed \(memory\): /)
  })

  it('cap the size of a written file', async () => {
    const code = attempt(`open('big.bin', 'wb').write(b'x' * (2 << 20))`)
    expect(outputOf(await runWith(['rlimits'], code, 1 << 20))).toBe('OSError')
  })
})

describe('the host after every layer test', () => {
  it('saw no connection, no written file, and the sentinel alive', () => {
    expect(connections).toBe(0)
    expect(readdirSync(hostDirectory)).toEqual(['secret.txt'])
    expect(sentinel.exitCode).toBeNull()
  })
})
