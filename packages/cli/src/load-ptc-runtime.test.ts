import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../test/support/settled-result.js'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { buildRuntime } from './build-runtime.js'
import type { CliIo } from './cli-command.js'
import type { LoadedConfig, QilinConfig } from './config.js'
import { escalationProfile, loadPtcRuntime } from './load-ptc-runtime.js'

const directory = realpathSync(mkdtempSync(join(tmpdir(), 'qilin-cli-sandbox-')))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const loaded = (config: QilinConfig): LoadedConfig => ({
  file: join(directory, 'qilin.config.json'),
  directory,
  config,
})

const io: CliIo = {
  cwd: directory,
  env: {},
  stdin: Readable.from([]),
  stdinIsTty: false,
  stderrIsTty: false,
  write: () => {},
  error: () => {},
  status: () => {},
  stop: new AbortController().signal,
}

describe('the config reaches the sandboxes', () => {
  it('resolves escalation paths against the config file, and has no profile without the entry', () => {
    expect(escalationProfile(loaded({ escalation: { network: true, writablePaths: ['cache', '/srv/x'] } }))).toEqual({
      network: true,
      writablePaths: [join(directory, 'cache'), '/srv/x'],
    })
    expect(escalationProfile(loaded({}))).toBeUndefined()
  })

  it('offers escalation in run_code only when the config has an escalation entry', async () => {
    const offered = await loadPtcRuntime('typescript', loaded({ escalation: { network: true } }), 'one')
    const plain = await loadPtcRuntime('typescript', loaded({}), 'one')
    try {
      const properties = (runtime: typeof offered) => runtime.present([], 'ptc').runCode.parameters.properties ?? {}
      expect(properties(offered).sandbox_permissions).toMatchObject({ enum: ['use_default', 'require_escalated'] })
      expect(properties(plain).sandbox_permissions).toBeUndefined()
    } finally {
      await offered.close()
      await plain.close()
    }
  })

  it("runs the toolkit's bash unconfined only when the config says sandbox: none, and says so", async () => {
    const cli = await buildRuntime(
      loaded({ approve: { bash: 'allow' }, bash: { sandbox: 'none' } }),
      { mode: 'native', language: undefined },
      io,
    )
    try {
      const result = await cli.runtime.execute({ id: 'c', name: 'bash', arguments: { command: 'echo hi' } })
      expect(expectSuccess(result).value).toMatchObject({ stdout: 'hi\n', sandbox: 'none' })
    } finally {
      await cli.close()
    }
  })

  it.skipIf(!hasSystemPart('bubblewrap', 'CLI bash confinement'))(
    'confines bash by default and passes the configured variables and network through',
    async () => {
      process.env.QILIN_TEST_PASSED = 'passed'
      process.env.QILIN_TEST_SECRET = 'kept'
      const cli = await buildRuntime(
        loaded({ approve: { bash: 'allow' }, bash: { env: ['QILIN_TEST_PASSED'] } }),
        { mode: 'native', language: undefined },
        io,
      )
      try {
        const command = 'echo "$QILIN_TEST_PASSED/$QILIN_TEST_SECRET"; ls /root 2>&1 | head -n 1'
        const result = await cli.runtime.execute({ id: 'c', name: 'bash', arguments: { command } })
        expect(expectSuccess(result).value).toMatchObject({ sandbox: 'bubblewrap' })
        expect((expectSuccess(result).value as { stdout: string }).stdout).toMatch(
          /^passed\/\nls: cannot access '\/root'/,
        )
      } finally {
        delete process.env.QILIN_TEST_PASSED
        delete process.env.QILIN_TEST_SECRET
        await cli.close()
      }
    },
  )
})
