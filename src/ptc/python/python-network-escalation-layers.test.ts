import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import type { SandboxEscalation } from '../../sandbox/sandbox-escalation.js'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { type ConfinementLayer, confinementLayers } from './confinement.js'
import { createPythonPtcRuntime } from './create-python-ptc-runtime.js'

/**
 * Each confinement layer on its own opens the network for a granted escalated run and only for it, so a layer
 * that stayed closed (or opened without the grant) fails here even while the others cover for it. Landlock
 * keeps its filesystem rules under the grant.
 */
let server: Server
let port = 0
let hostDirectory: string

beforeAll(async () => {
  hostDirectory = mkdtempSync(join(tmpdir(), 'qilin-network-layers-'))
  writeFileSync(join(hostDirectory, 'secret.txt'), 'host secret')
  server = createServer((socket) => {
    socket.resume()
    socket.end('pong\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(hostDirectory, { recursive: true, force: true })
})

/** What the server sent, or the exception class that stopped the connection. */
const connect = () => `import socket
try:
    with socket.create_connection(('127.0.0.1', ${port}), timeout=5) as connection:
        return connection.recv(5).decode()
except OSError as error:
    return type(error).__name__`

async function runWithLayer(
  layer: ConfinementLayer,
  escalation: SandboxEscalation,
  code: string,
): Promise<PtcRunOutcome> {
  const runtime = createPythonPtcRuntime({ layers: [layer], poolSize: 0, escalation })
  try {
    return await runtime.run(fakeRunRequest(code, {}, { permissions: 'require_escalated' }))
  } finally {
    await runtime.close()
  }
}

describe.skipIf(!hasSystemPart('bubblewrap', 'Python network escalation, layer by layer'))(
  'each layer under a network grant',
  () => {
    for (const layer of confinementLayers.filter((name) => name !== 'rlimits')) {
      it(`${layer}: lets the escalated program connect with the grant, and refuses it without`, async () => {
        const granted = await runWithLayer(layer, { network: true }, connect())
        expect(granted.ok && granted.value).toBe('pong\n')
        const refused = await runWithLayer(layer, { writablePaths: [] }, connect())
        expect(refused.ok && refused.value).toMatch(/Error$/)
      })
    }

    it('landlock: keeps refusing host files and writes outside the work directory under the grant', async () => {
      const code = `results = []
for action in (lambda: open(${JSON.stringify(join(hostDirectory, 'secret.txt'))}).read(),
               lambda: open(${JSON.stringify(join(hostDirectory, 'written'))}, 'w').write('x')):
    try:
        action()
        results.append('ok')
    except OSError as error:
        results.append(type(error).__name__)
return results`
      const outcome = await runWithLayer('landlock', { network: true }, code)
      expect(outcome.ok && outcome.value).toEqual(['PermissionError', 'PermissionError'])
    })
  },
)
