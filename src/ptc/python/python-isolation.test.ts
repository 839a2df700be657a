import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { createPythonPtcRuntime, type PythonPtcRuntime } from './create-python-ptc-runtime.js'

/**
 * Escape attempts against the fully confined runtime. Every probe prints `ESCAPED …` if it got through;
 * the host side checks its own evidence too (no connection, no file, the sentinel process alive).
 */
const secret = `host-secret-${process.pid}`
const confined = hasSystemPart('bubblewrap', 'Python isolation probes')
let runtime: PythonPtcRuntime
let server: Server
let port = 0
let connections = 0
let sentinel: ChildProcess
let hostDirectory: string

function textOf(outcome: PtcRunOutcome): string {
  return outcome.ok
    ? outcome.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    : outcome.error.message
}

/** Runs `body` (indented under a try) and reports ESCAPED unless it raised. */
function probe(body: string): string {
  const indented = body
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
  return `try:\n${indented}\n    print('ESCAPED', result)\nexcept BaseException as error:\n    print('blocked', type(error).__name__)`
}

beforeAll(async () => {
  if (!confined) return
  runtime = createPythonPtcRuntime({ poolSize: 2, tmpBytes: 8 << 20 })
  hostDirectory = mkdtempSync(join(tmpdir(), 'qilin-isolation-'))
  writeFileSync(join(hostDirectory, 'secret.txt'), secret)
  server = createServer((socket) => {
    connections++
    socket.end(secret)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
  sentinel = spawn('sleep', ['60'], { stdio: 'ignore' })
})

afterAll(async () => {
  if (!confined) return
  await runtime.close()
  server.close()
  sentinel.kill('SIGKILL')
  rmSync(hostDirectory, { recursive: true, force: true })
})

const probes: Record<string, () => string> = {
  'read /etc/shadow': () => probe(`result = open('/etc/shadow').read()`),
  'read a host file by absolute path': () =>
    probe(`result = open(${JSON.stringify(join(hostDirectory, 'secret.txt'))}).read()`),
  'read this repository': () => probe(`result = open(${JSON.stringify(join(process.cwd(), 'package.json'))}).read()`),
  'list the root directory': () => probe(`import os\nresult = os.listdir('/')`),
  'write outside the private tmp': () =>
    probe(`result = open(${JSON.stringify(join(hostDirectory, 'written'))}, 'w').write('x')`),
  'write into /usr': () => probe(`result = open('/usr/escaped', 'w').write('x')`),
  'run a subprocess': () => probe(`import subprocess\nresult = subprocess.run(['/usr/bin/true']).returncode`),
  'os.system': () => probe(`import os\nresult = os.system('true')\nassert result == 0`),
  'os.fork': () => probe(`import os\nresult = os.fork()`),
  'a fork bomb': () => probe(`import os\nwhile True:\n    result = os.fork()`),
  'os.posix_spawn': () => probe(`import os\nresult = os.posix_spawn('/usr/bin/true', ['true'], {})`),
  'a TCP socket to a loopback server': () =>
    probe(`import socket\nresult = socket.create_connection(('127.0.0.1', ${port}), timeout=2).recv(100)`),
  'a UDP socket': () => probe(`import socket\nresult = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)`),
  'a Unix socket pair': () => probe(`import socket\nresult = socket.socketpair()`),
  'SIGKILL to the parent': () =>
    probe(`import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nresult = os.getppid()`),
  'SIGKILL to a host process': () =>
    probe(`import os, signal\nos.kill(${sentinel.pid}, signal.SIGKILL)\nresult = 'sent'`),
  'SIGKILL to every process': () => probe(`import os, signal\nos.kill(-1, signal.SIGKILL)\nresult = 'sent'`),
  'fork through ctypes': () =>
    probe(
      `import ctypes\nresult = ctypes.CDLL(None, use_errno=True).syscall(57)\nassert result >= 0, ctypes.get_errno()`,
    ),
  'execve through ctypes': () =>
    probe(
      `import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nargv = (ctypes.c_char_p * 2)(b'/usr/bin/true', None)\nresult = libc.execv(b'/usr/bin/true', argv)\nassert result >= 0`,
    ),
  'raising its own limits': () =>
    probe(
      `import resource\nresource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))\nresult = 'raised'`,
    ),
  ptrace: () =>
    probe(`import ctypes\nresult = ctypes.CDLL(None, use_errno=True).ptrace(16, 1, 0, 0)\nassert result == 0`),
  'filling the private tmp past its size': () =>
    probe(`result = [open(f'/tmp/fill{n}', 'wb').write(b'x' * (4 << 20)) for n in range(3)]`),
  'import js (a browser bridge)': () => probe(`import js\nresult = js`),
  'import pyodide': () => probe(`import pyodide\nresult = pyodide`),
  'the host environment': () =>
    probe(`import os\nresult = os.environ.get('PATH') or os.environ.get('HOME')\nassert result`),
}

describe.skipIf(!confined)('the fully confined Python runtime blocks', () => {
  for (const [name, code] of Object.entries(probes)) {
    it(name, async () => {
      const outcome = await runtime.run(fakeRunRequest(code(), {}, { timeoutMs: 10_000 }))
      const text = textOf(outcome)
      expect(text).toMatch(/^blocked \w+/)
      expect(text).not.toContain('ESCAPED')
      expect(text).not.toContain(secret)
    })
  }

  it('left every host resource untouched', () => {
    expect(connections).toBe(0)
    expect(readdirSync(hostDirectory)).toEqual(['secret.txt'])
    expect(sentinel.exitCode).toBeNull()
    expect(sentinel.signalCode).toBeNull()
  })

  it('still writes inside its private tmp', async () => {
    const code = `open('/tmp/note.txt', 'w').write('kept')\nreturn open('/tmp/note.txt').read()`
    const outcome = await runtime.run(fakeRunRequest(code))
    expect(outcome.ok && outcome.value).toBe('kept')
  })

  it('stops a memory bomb as a memory failure and stays healthy', async () => {
    const bomb = `chunks = []\nwhile True:\n    chunks.append(bytearray(64 * 1024 * 1024))`
    const outcome = await runtime.run(fakeRunRequest(bomb))
    expect(textOf(outcome)).toMatch(/^code run failed \(memory\): /)
    const after = await runtime.run(fakeRunRequest('return 1 + 1'))
    expect(after.ok && after.value).toBe(2)
  })
})

describe.skipIf(!confined)('forging calls to tools the program may not call', () => {
  it('never reaches a hidden tool by writing to the channel fd', async () => {
    const code = `import os, json
line = json.dumps({'t': 'call', 'id': 999, 'name': 'hidden', 'args': {}}) + '\\n'
os.write(3, line.encode())
await asyncio.sleep(0.2)
return await tools.visible()`
    const request = fakeRunRequest(code, { visible: () => 'seen', hidden: () => secret }, { toolNames: ['visible'] })
    const outcome = await runtime.run(request)
    expect(outcome.ok && outcome.value).toBe('seen')
    expect(request.calls.map((call) => call.name)).toEqual(['visible'])
  })

  it('gets UNKNOWN_TOOL when it drives the bridge object directly', async () => {
    const code = `import gc
bridge = next(o for o in gc.get_objects() if type(o).__name__ == 'Bridge')
try:
    await bridge.call('hidden', {})
except ToolCallError as error:
    return error.code`
    const request = fakeRunRequest(code, { visible: () => 'seen', hidden: () => secret }, { toolNames: ['visible'] })
    const outcome = await runtime.run(request)
    expect(outcome.ok && outcome.value).toBe('UNKNOWN_TOOL')
    expect(request.calls).toEqual([])
  })

  it('has no binding for a hidden tool', async () => {
    const code = `try:\n    tools.hidden\nexcept AttributeError:\n    return 'no binding'`
    const request = fakeRunRequest(code, { visible: () => 'seen', hidden: () => secret }, { toolNames: ['visible'] })
    const outcome = await runtime.run(request)
    expect(outcome.ok && outcome.value).toBe('no binding')
  })
})
