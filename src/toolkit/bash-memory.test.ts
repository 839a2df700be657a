import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../test/support/system-requirement.js'
import type { ToolExecution } from '../definition/tool-definition.js'
import { isInvalidArgumentError } from '../errors/invalid-argument-error.js'
import { isToolError } from '../errors/tool-error.js'
import { worstEventLoopLag } from '../json-schema/__fixtures__/event-loop-lag.js'
import { memoryBudgetProblem } from '../sandbox/memory-budget.js'
import { hostProcessesMatching } from './__fixtures__/host-processes.js'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'
import { type BashToolOptions, type BashValue, bashTool } from './bash-tool.js'
import { openWorkspace } from './workspace.js'

const megabyte = 1024 * 1024
const cap = 128 * megabyte

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace({})
})
afterEach(() => workspace.dispose())

const execution: ToolExecution = {
  signal: new AbortController().signal,
  callId: 'c',
  toolName: 'bash',
  agentId: undefined,
  correlationId: 'c',
  escalated: false,
}

/**
 * The real tool, run once already so its one-time probes (bubblewrap, the cgroup controllers) are not counted in
 * what a command costs the host; it answers with the command's value, or the `ToolError` the call failed with.
 */
async function preparedBash(options: BashToolOptions): Promise<(command: string) => Promise<BashValue | Error>> {
  const tool = bashTool(openWorkspace(workspace.root), options)
  await tool.execute({ command: 'true' }, execution)
  return async (command) => {
    try {
      return (await tool.execute({ command }, execution)) as BashValue
    } catch (error) {
      return error as Error
    }
  }
}

/** Samples, every 10 ms while `work` runs, the resident memory of the processes marked `marker` and the host's shmem. */
async function watched<T>(marker: string, work: () => Promise<T>) {
  const shmem = () => Number(/^Shmem:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) * 1024
  const resident = (pid: number) => {
    try {
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024
    } catch {
      return 0
    }
  }
  const shmemBefore = shmem()
  let peakResident = 0
  let peakShmem = 0
  const probe = setInterval(() => {
    const marked = hostProcessesMatching(marker).reduce((sum, pid) => sum + resident(pid), 0)
    peakResident = Math.max(peakResident, marked)
    peakShmem = Math.max(peakShmem, shmem() - shmemBefore)
  }, 10)
  let value: T | undefined
  const lag = await worstEventLoopLag(async () => {
    value = await work()
  })
  clearInterval(probe)
  if (process.env.QILIN_PRINT_FIGURES) console.log(JSON.stringify({ marker, peakResident, peakShmem, lag }))
  return { value: value as T, peakResident, peakShmem, lag }
}

const memoryCap = hasSystemPart('bubblewrap', 'bash memory budget') ? memoryBudgetProblem() : 'no bubblewrap'

describe.skipIf(memoryCap !== undefined)('bash under a memory cgroup (issue 14)', () => {
  it('kills a command that touches 1 GiB of anonymous memory under a 128 MiB cap, and the call fails saying so', async () => {
    const marker = `qilin-anon-${process.pid}`
    const allocate = `python3 -c "b = bytearray(1 << 30); b[::4096] = b'x' * len(b[::4096]); print('survived')" ${marker}`
    const bash = await preparedBash({ memoryBytes: cap })
    const run = await watched(marker, () => bash(allocate))
    expect(isToolError(run.value)).toBe(true)
    expect(run.value).toMatchObject({
      code: 'TOOL_ERROR',
      message:
        'the command went past its 128 MB memory budget (its processes, its /tmp and /dev/shm files and the kernel memory they hold) and was killed',
    })
    expect(run.peakResident).toBeLessThan(2 * cap)
    expect(run.lag).toBeLessThan(100)
  })

  it('kills a command that fills /tmp past the cap: tmpfs pages are charged to it, not left on the host', async () => {
    const bash = await preparedBash({ memoryBytes: cap })
    const run = await watched('qilin-none', () => bash('head -c 1G /dev/zero > /tmp/fill; echo "exit $?"'))
    expect(run.value).toMatchObject({ code: 'TOOL_ERROR' })
    expect(run.peakShmem).toBeLessThan(3 * cap)
    expect(run.lag).toBeLessThan(100)
  })

  it('leaves a command within the cap alone', async () => {
    const allocate = `python3 -c "b = bytearray(32 << 20); b[::4096] = b'x' * len(b[::4096]); print('survived')"`
    const bash = await preparedBash({ memoryBytes: cap })
    expect(await bash(allocate)).toMatchObject({ exitCode: 0, stdout: 'survived\n' })
  })
})

describe('bash memory options', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 4096, '2G'])(
    'refuses memoryBytes or tmpBytes of %s when the tool is made, naming the field',
    (value) => {
      for (const field of ['memoryBytes', 'tmpBytes']) {
        const make = () => bashTool(openWorkspace(workspace.root), { [field]: value } as BashToolOptions)
        expect(make).toThrow(`bash ${field} must be a whole number of bytes, at least 1 MiB, got ${String(value)}`)
        try {
          make()
        } catch (error) {
          expect(isInvalidArgumentError(error)).toBe(true)
        }
      }
    },
  )
})
