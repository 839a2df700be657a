import { execFileSync } from 'node:child_process'
import { inodesFor, openCappedMounts } from '@qilin-tools/sandbox/internal/capped-tmpfs.js'
import { describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'

const megabyte = 1024 * 1024
const probe = openCappedMounts({ bytes: megabyte, inodes: 64 }, { bytes: megabyte, inodes: 64 })
if (!('problem' in probe)) probe.release()
const usable = hasSystemPart('bubblewrap', 'Python inode-capped /tmp') && !('problem' in probe)

/** Up to 20,000 directories in /tmp: far past its cap, harmless without one. (Landlock keeps /dev/shm read-only.) */
const flood = [
  'import os',
  "for place in ('/tmp',):",
  '    made, stopped = 0, "no limit"',
  '    try:',
  '        while made < 20_000:',
  "            os.mkdir(f'{place}/d{made}')",
  '            made += 1',
  '    except OSError as error:',
  '        stopped = error.strerror',
  '    print(place, made, stopped)',
].join('\n')

describe.skipIf(!usable)('a Python program on a host that is not root (issue 14)', () => {
  it('stops a mkdir flood at the inode cap of /tmp, where no memory cgroup bounds it', () => {
    // Import as root, then drop to nobody: the checkout may be readable by root alone.
    const script = `Promise.all([
      import('${import.meta.dirname}/create-python-ptc-runtime.ts'),
      import('${import.meta.dirname}/../../code-mode/src/__fixtures__/fake-run-request.ts'),
      import('${import.meta.dirname}/../../sandbox/src/memory-budget.ts'),
    ]).then(async ([{ createPythonPtcRuntime }, { fakeRunRequest }, { memoryBudgetProblem }]) => {
      process.setgroups([]); process.setgid(65534); process.setuid(65534)
      const runtime = createPythonPtcRuntime({ poolSize: 0 })
      const outcome = await runtime.run(fakeRunRequest(${JSON.stringify(flood)}, {}, { timeoutMs: 30_000 }))
      await runtime.close()
      const text = outcome.ok ? outcome.content.map((part) => part.text ?? '').join('') : outcome.error.message
      console.log(JSON.stringify({ memoryBudget: memoryBudgetProblem() === undefined, text }))
    })`
    const output = execFileSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '-e', script], {
      encoding: 'utf8',
      timeout: 90_000,
    })
    const run = JSON.parse(output.trim().split('\n').at(-1) ?? '{}')
    expect(run.memoryBudget).toBe(false)
    // The tmpfs root takes one inode.
    expect(run.text).toBe(`/tmp ${inodesFor(64 * megabyte) - 1} No space left on device`)
  }, 120_000)
})
