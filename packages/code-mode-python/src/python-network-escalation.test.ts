import { createServer, type Server } from 'node:net'
import type { SandboxEscalation } from '@qilin-tools/sandbox/internal/sandbox-escalation.js'
import { worstEventLoopLag } from 'qilin-tools/internal/json-schema/__fixtures__/event-loop-lag.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { Approver } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../../test/support/settled-result.js'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { createPythonPtcRuntime } from './create-python-ptc-runtime.js'

/**
 * `escalation: { network: true }` reaches a Python program's own sockets, for the approved run only: bubblewrap
 * shares the host's network namespace, seccomp loads `networked-program`, and Landlock leaves TCP alone.
 * Everything else the runner refuses (processes, programs, local sockets) stays refused. Each layer on its own:
 * python-network-escalation-layers.test.ts.
 */
let server: Server
let port = 0
/** Connections the loopback server accepted, and an abstract local socket in the host's network namespace. */
let connections = 0
let abstractServer: Server
const abstractName = `qilin-python-escalation-${process.pid}`
let abstractConnections = 0

beforeAll(async () => {
  server = createServer((socket) => {
    connections++
    // Drained, so a client that sent something (a TLS hello) is seen to hang up and the socket closes.
    socket.resume()
    socket.end('pong\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
  abstractServer = createServer((socket) => {
    abstractConnections++
    socket.resume()
    socket.end('host\n')
  })
  await new Promise<void>((resolve) => abstractServer.listen(`\0${abstractName}`, resolve))
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await new Promise<void>((resolve) => abstractServer.close(() => resolve()))
})

/** The program's answer: what the server sent, or the exception class that stopped it. */
const connect = () => `import socket
try:
    with socket.create_connection(('127.0.0.1', ${port}), timeout=5) as connection:
        return connection.recv(5).decode()
except OSError as error:
    return type(error).__name__`

/** What each refused thing did in a networked run: the exception class name, or `ok` if it was let through. */
const stillRefused = () => `import os, socket, subprocess
results = {}
def attempt(name, action):
    try:
        action()
        results[name] = 'ok'
    except OSError as error:
        results[name] = type(error).__name__
attempt('fork', lambda: (lambda pid: os._exit(0) if pid == 0 else os.waitpid(pid, 0))(os.fork()))
attempt('exec', lambda: subprocess.run(['/bin/true']))
attempt('local socket', lambda: socket.socket(socket.AF_UNIX).connect('\\0${abstractName}'))
attempt('socketpair', lambda: socket.socketpair())
attempt('netlink', lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW))
attempt('udp', lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close())
attempt('ipv6', lambda: socket.socket(socket.AF_INET6).close())
return results`

/** Name resolution (by /etc/hosts) and TLS: what a networked program needs besides a socket. */
const resolveAndTls = () => `import os, socket
out = {'hosts': os.path.exists('/etc/hosts')}
try:
    with socket.create_connection(('localhost', ${port}), timeout=5) as connection:
        out['by name'] = connection.recv(5).decode()
except OSError as error:
    out['by name'] = type(error).__name__
try:
    import ssl
    out['tls roots'] = ssl.create_default_context().cert_store_stats()['x509_ca'] > 0
except ImportError as error:
    out['tls roots'] = type(error).__name__
if out['tls roots'] is True:
    # The server speaks plain text, so the handshake fails: the point is that asyncio tried TLS at all.
    try:
        await asyncio.open_connection('127.0.0.1', ${port}, ssl=ssl.create_default_context())
    except Exception as error:
        out['asyncio tls'] = type(error).__name__
return out`

function runCode(code: string, permissions: 'use_default' | 'require_escalated', id: string) {
  return {
    id,
    name: 'run_code',
    arguments: {
      code,
      description: 'talk to a loopback server',
      sandbox_permissions: permissions,
      ...(permissions === 'require_escalated' ? { justification: 'fetch from the local server' } : {}),
    },
  }
}

/** A real Python runtime under a real tool runtime, as the CLI builds them. */
function setup(escalation: SandboxEscalation, approve: Approver = () => true) {
  const ptcRuntime = createPythonPtcRuntime({ poolSize: 1, escalation })
  const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime, approve })
  return { runtime, close: () => ptcRuntime.close() }
}

describe.skipIf(!hasSystemPart('bubblewrap', 'Python network escalation'))('a Python run granted the network', () => {
  it('connects only in the approved escalated run; the pooled runs before and after cannot', async () => {
    const { runtime, close } = setup({ network: true })
    const start = connections
    try {
      const before = await runtime.execute(runCode(connect(), 'use_default', 'before'))
      expect(expectSuccess(before).value).toBe('PermissionError')
      expect(connections - start).toBe(0)
      const escalated = await runtime.execute(runCode(connect(), 'require_escalated', 'escalated'))
      expect(expectSuccess(escalated).value).toBe('pong\n')
      expect(connections - start).toBe(1)
      const after = await runtime.execute(runCode(connect(), 'use_default', 'after'))
      expect(expectSuccess(after).value).toBe('PermissionError')
      expect(connections - start).toBe(1)
    } finally {
      await close()
    }
  })

  it('resolves names and loads the TLS roots in the networked run only', async () => {
    const { runtime, close } = setup({ network: true })
    try {
      const plain = await runtime.execute(runCode(resolveAndTls(), 'use_default', 'plain'))
      expect(expectSuccess(plain).value).toEqual({
        hosts: false,
        'by name': 'gaierror',
        'tls roots': 'ModuleNotFoundError',
      })
      const escalated = await runtime.execute(runCode(resolveAndTls(), 'require_escalated', 'escalated'))
      expect(expectSuccess(escalated).value).toEqual({
        hosts: true,
        'by name': 'pong\n',
        'tls roots': true,
        'asyncio tls': 'SSLError',
      })
    } finally {
      await close()
    }
  })

  it('still refuses processes, programs and every socket family but IPv4 and IPv6', async () => {
    const { runtime, close } = setup({ network: true })
    try {
      const escalated = await runtime.execute(runCode(stillRefused(), 'require_escalated', 'escalated'))
      expect(expectSuccess(escalated).value).toEqual({
        fork: 'PermissionError',
        exec: 'PermissionError',
        'local socket': 'PermissionError',
        socketpair: 'PermissionError',
        netlink: 'PermissionError',
        udp: 'ok',
        ipv6: 'ok',
      })
      expect(abstractConnections).toBe(0)
    } finally {
      await close()
    }
  })

  it('cannot connect when the escalation grants writable paths but not the network', async () => {
    const { runtime, close } = setup({ writablePaths: ['/nonexistent/qilin-escalation'] })
    try {
      const escalated = await runtime.execute(runCode(connect(), 'require_escalated', 'escalated'))
      expect(escalated.ok).toBe(true)
      expect(expectSuccess(escalated).value).toBe('PermissionError')
    } finally {
      await close()
    }
  })

  it('a program that floods a host service with connections runs out of descriptors, not the host', async () => {
    // Holds every connection open: each one costs this process a descriptor for as long as the program keeps it.
    const held = new Set<import('node:net').Socket>()
    const flooded = createServer((socket) => {
      held.add(socket)
      socket.on('close', () => held.delete(socket))
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => flooded.listen(0, '127.0.0.1', resolve))
    const floodPort = (flooded.address() as { port: number }).port
    const flood = `import socket
held = []
try:
    while len(held) < 100000:
        held.append(socket.create_connection(('127.0.0.1', ${floodPort}), timeout=5))
except OSError as error:
    return [len(held), type(error).__name__]
return [len(held), 'none']`
    const { runtime, close } = setup({ network: true })
    try {
      let value: unknown
      const lag = await worstEventLoopLag(async () => {
        value = expectSuccess(await runtime.execute(runCode(flood, 'require_escalated', 'flood'))).value
      })
      const [count, error] = value as [number, string]
      expect(error).toBe('OSError')
      expect(count).toBeGreaterThan(900)
      expect(count).toBeLessThan(1024)
      expect(lag).toBeLessThan(1_000)
      // The run is over and its runner gone: every connection it held is released.
      await expect.poll(() => held.size, { timeout: 5_000 }).toBe(0)
      const next = await runtime.execute(runCode(connect(), 'require_escalated', 'next'))
      expect(expectSuccess(next).value).toBe('pong\n')
    } finally {
      await close()
      for (const socket of held) socket.destroy()
      await new Promise<void>((resolve) => flooded.close(() => resolve()))
    }
  })

  it('runs nothing when the escalation is denied', async () => {
    const before = connections
    const { runtime, close } = setup({ network: true }, () => false)
    try {
      const denied = await runtime.execute(runCode(connect(), 'require_escalated', 'denied'))
      expect(expectFailure(denied).error.code).toBe('DENIED')
      expect(connections).toBe(before)
    } finally {
      await close()
    }
  })
})
