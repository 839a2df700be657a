import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTempProject, ensureBuiltCli, repositoryRoot, type TempProject } from './support/built-cli.js'

const command = join(repositoryRoot, 'packages', 'cli', 'bin', 'qilin-tools.js')
const givesPagesBack = 'GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536'

let project: TempProject | undefined
beforeAll(() => ensureBuiltCli(), 180_000)
afterEach(() => project?.dispose())

/** The NUL-separated entries of /proc/<pid>/<file>, once `env` has become node (it execs in place). */
async function procEntries(pid: number, file: 'cmdline' | 'environ'): Promise<string[]> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    if (cmdline[0]?.endsWith('node')) return readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0')
    await sleep(25)
  }
  throw new Error(`process ${pid} never became node`)
}

// /proc and glibc's tunables are Linux's; elsewhere the line sets a variable nothing reads.
describe.runIf(process.platform === 'linux')('the qilin-tools command, started through its own first line', () => {
  it('runs node without the built-in snapshot and with the fixed mmap threshold that gives freed array buffers back', async () => {
    expect(readFileSync(command, 'utf8').split('\n')[0]).toBe(
      `#!/usr/bin/env -S ${givesPagesBack} node --no-node-snapshot`,
    )
    project = createTempProject({ 'a.txt': 'a' })
    const { GLIBC_TUNABLES: _unset, ...environment } = process.env
    const server = spawn(command, ['serve'], { cwd: project.directory, env: environment, stdio: 'pipe' })
    try {
      const pid = server.pid!
      expect(await procEntries(pid, 'cmdline')).toContain('--no-node-snapshot')
      expect(await procEntries(pid, 'environ')).toContain(givesPagesBack)
    } finally {
      server.kill('SIGKILL')
    }
  })
})
