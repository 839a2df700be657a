import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { inodesFor, openCappedMounts } from './capped-tmpfs.js'

const megabyte = 1024 * 1024

/** Python that makes up to 20,000 directories (far past the cap, harmless without it), and says where it stopped. */
const mkdirFlood = [
  'import os',
  'made, stopped = 0, "no limit"',
  'try:',
  '    while made < 20_000:',
  '        os.mkdir(str(made))',
  '        made += 1',
  'except OSError as error:',
  '    stopped = error.strerror',
  'print(made, stopped)',
].join('\n')

describe('inodesFor', () => {
  it('gives one inode per 8 KiB, and never fewer than 1,024', () => {
    expect(inodesFor(512 * megabyte)).toBe(65_536)
    expect(inodesFor(16 * megabyte)).toBe(2_048)
    expect(inodesFor(1 * megabyte)).toBe(1_024)
  })
})

const probe = openCappedMounts({ bytes: megabyte, inodes: 64 }, { bytes: megabyte, inodes: 64 })
if (!('problem' in probe)) probe.release()
const usable = hasSystemPart('bubblewrap', 'inode-capped tmpfs') && !('problem' in probe)

describe.skipIf(!usable)('an inode-capped /tmp for bash (issue 14)', () => {
  it('sweeps the mount points a host that is gone left behind, and keeps a live one', () => {
    const gone = spawnSync('true').pid ?? 0
    const abandoned = join(tmpdir(), `qilin-mounts-${gone}-left`)
    mkdirSync(join(abandoned, 'tmp'), { recursive: true })
    const mounts = openCappedMounts({ bytes: megabyte, inodes: 64 }, { bytes: megabyte, inodes: 64 })
    if ('problem' in mounts) throw new Error(mounts.problem)
    expect(existsSync(abandoned)).toBe(false)
    expect(existsSync(mounts.tmpSource)).toBe(true)
    mounts.release()
    expect(existsSync(dirname(mounts.tmpSource))).toBe(false)
  })

  it('stops a mkdir flood at the inode cap for a host that is not root, where no memory cgroup bounds it', () => {
    // Import as root, then drop to nobody: the checkout may be readable by root alone.
    const script = `import('${import.meta.dirname}/../../toolkit/src/bash-tool.ts').then(async ({ bashTool }) => {
      const { openWorkspace } = await import('${import.meta.dirname}/../../toolkit/src/workspace.ts')
      const { mkdtempSync } = await import('node:fs')
      const { memoryBudgetProblem } = await import('${import.meta.dirname}/memory-budget.ts')
      process.setgroups([]); process.setgid(65534); process.setuid(65534)
      const root = mkdtempSync('/tmp/qilin-inodes-')
      const tool = bashTool(openWorkspace(root), { tmpBytes: 8 * 1024 * 1024 })
      const exec = { signal: new AbortController().signal, callId: 'c', toolName: 'bash', agentId: undefined, correlationId: 'c', escalated: false }
      const run = await tool.execute({ command: ${JSON.stringify(`id -u; cd /tmp && python3 -c '${mkdirFlood}'`)} }, exec)
      console.log(JSON.stringify({ memoryBudget: memoryBudgetProblem() === undefined, ...run }))
    })`
    const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    const run = JSON.parse(output.trim().split('\n').at(-1) ?? '{}')
    expect(run.memoryBudget).toBe(false)
    // The tmpfs root and the workspace's mount point take one inode each.
    expect(run.stdout).toBe(`65534\n${inodesFor(8 * megabyte) - 2} No space left on device\n`)
  })
})
