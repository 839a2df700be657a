import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { defaultShmBytes } from '../../sandbox/bubblewrap-arguments.js'
import { memoryBudgetProblem } from '../../sandbox/memory-budget.js'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { createPythonPtcRuntime, type PythonPtcRuntime } from './create-python-ptc-runtime.js'

/**
 * Attacks on memory the kernel holds for a program rather than the program itself (issue 14), so RLIMIT_AS never
 * sees it: System V shared memory, and inodes in the private `/tmp`. The host measures what the attack grows (the
 * machine's Shmem and Slab in /proc/meminfo), its own event-loop lag while the attack runs, and that the memory
 * comes back once the run is over.
 */
const confined = hasSystemPart('bubblewrap', 'Python kernel memory attacks')
const megabyte = 1024 * 1024
let runtime: PythonPtcRuntime
/** Without Landlock, `/dev/shm` is writable: its own tmpfs, sized well under the budget, bounds it. */
let withoutLandlock: PythonPtcRuntime

function kernelHeldBytes(): number {
  const info = readFileSync('/proc/meminfo', 'utf8')
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(info)?.[1] ?? 0) * 1024
  return field('Shmem') + field('Slab')
}

function textOf(outcome: PtcRunOutcome): string {
  return outcome.ok
    ? outcome.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    : outcome.error.message
}

/** Runs `code` while sampling the machine's kernel-held memory and this process's event-loop lag every 20 ms. */
async function measured(code: string, timeoutMs: number, on = runtime) {
  const baseline = kernelHeldBytes()
  let peak = baseline
  let worstLagMs = 0
  let expected = performance.now() + 20
  const sampler = setInterval(() => {
    const now = performance.now()
    worstLagMs = Math.max(worstLagMs, now - expected)
    expected = now + 20
    peak = Math.max(peak, kernelHeldBytes())
  }, 20)
  try {
    const outcome = await on.run(fakeRunRequest(code, {}, { timeoutMs }))
    let after = kernelHeldBytes()
    for (let waited = 0; after - baseline > 50 * megabyte && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      after = kernelHeldBytes()
    }
    return { text: textOf(outcome), grewBy: peak - baseline, leftOver: after - baseline, worstLagMs }
  } finally {
    clearInterval(sampler)
  }
}

beforeAll(async () => {
  if (!confined) return
  runtime = createPythonPtcRuntime({ poolSize: 0 })
  withoutLandlock = createPythonPtcRuntime({
    poolSize: 0,
    confinement: 'partial',
    layers: ['bubblewrap', 'seccomp', 'rlimits'],
    totalMemoryBytes: 128 * megabyte,
  })
})

afterAll(async () => {
  if (!confined) return
  await runtime.close()
  await withoutLandlock.close()
})

describe.skipIf(!confined)('kernel memory a Python program may pin', () => {
  it('cannot pin System V shared memory past its address-space limit', async () => {
    // 8 segments of 128 MB, each touched and detached: 1 GB held by the kernel under a 384 MB RLIMIT_AS.
    const code = [
      'import ctypes, errno',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]',
      'libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]',
      'libc.shmat.restype = ctypes.c_void_p',
      'libc.shmdt.argtypes = [ctypes.c_void_p]',
      'segment = 128 << 20',
      'pinned = 0',
      'for _ in range(8):',
      '    ident = libc.shmget(0, segment, 0o1600)',
      '    if ident < 0:',
      "        print('shmget refused', errno.errorcode[ctypes.get_errno()])",
      '        break',
      '    address = libc.shmat(ident, None, 0)',
      '    if address is None or address == ctypes.c_void_p(-1).value:',
      "        print('shmat refused', errno.errorcode[ctypes.get_errno()])",
      '        break',
      '    ctypes.memset(address, 1, segment)',
      '    libc.shmdt(address)',
      '    pinned += segment',
      "print('pinned MB', pinned >> 20)",
      'import time',
      'time.sleep(0.5)',
    ].join('\n')
    const run = await measured(code, 30_000)
    expect(run.text).toContain('shmget refused EPERM')
    expect(run.text).toContain('pinned MB 0')
    expect(run.grewBy).toBeLessThan(50 * megabyte)
    expect(run.leftOver).toBeLessThan(50 * megabyte)
    expect(run.worstLagMs).toBeLessThan(250)
  }, 60_000)

  it.each([
    ['a message queue', 'libc.msgget(0, 0o1600)'],
    ['a semaphore set', 'libc.semget(0, 250, 0o1600)'],
  ])(
    'cannot make %s either (both hold kernel memory for as long as the run)',
    async (_, call) => {
      const code = [
        'import ctypes, errno',
        'libc = ctypes.CDLL(None, use_errno=True)',
        `made = ${call}`,
        "print('refused', errno.errorcode[ctypes.get_errno()] if made < 0 else 'no')",
      ].join('\n')
      const run = await measured(code, 10_000)
      expect(run.text).toContain('refused EPERM')
    },
    30_000,
  )

  const budgetProblem = memoryBudgetProblem()
  it.skipIf(budgetProblem !== undefined)(
    `cannot grow kernel memory past the run's memory budget with a mkdir flood in /tmp${budgetProblem === undefined ? '' : ` (skipped: ${budgetProblem})`}`,
    async () => {
      // Up to two million empty directories (each an inode and a dentry the tmpfs pins), for at most 20 s.
      const code = [
        'import os, time',
        'deadline = time.monotonic() + 20',
        'made = 0',
        "stopped = 'cap'",
        'try:',
        '    while made < 2_000_000:',
        "        os.mkdir(f'/tmp/d{made}')",
        '        made += 1',
        '        if made % 4096 == 0 and time.monotonic() > deadline:',
        "            stopped = 'time'",
        '            break',
        'except OSError as error:',
        '    stopped = type(error).__name__',
        "print('made', made, 'stopped by', stopped)",
      ].join('\n')
      const run = await measured(code, 40_000)
      // The default budget is the address-space limit plus /tmp (384 + 64 MB); slack for the rest of the machine.
      // Unbounded, the same flood grew the machine's Slab by 1.29 GB in its 20 s.
      expect(run.grewBy).toBeLessThan(448 * megabyte + 96 * megabyte)
      expect(run.leftOver).toBeLessThan(50 * megabyte)
      expect(run.worstLagMs).toBeLessThan(250)
      expect(run.text).toMatch(/went past its 448 MB memory budget .* and was killed|stopped by OSError/)
      const next = await measured(`print('still serving')`, 10_000)
      expect(next.text).toBe('still serving')
    },
    90_000,
  )

  it.skipIf(budgetProblem !== undefined)(
    `cannot fill /dev/shm past its size where Landlock is missing${budgetProblem === undefined ? '' : ` (skipped: ${budgetProblem})`}`,
    async () => {
      // 8 MB files (under RLIMIT_FSIZE) up to 1 GB, in a tmpfs of defaultShmBytes.
      const code = [
        'import os',
        "block = b'x' * (8 << 20)",
        'for index in range(128):',
        "    with open(f'/dev/shm/f{index}', 'wb') as file:",
        '        file.write(block)',
        "print('wrote MB', 8 * 128)",
      ].join('\n')
      const run = await measured(code, 30_000, withoutLandlock)
      expect(run.text).toContain('No space left on device')
      expect(run.grewBy).toBeLessThan(defaultShmBytes + 64 * megabyte)
      expect(run.leftOver).toBeLessThan(50 * megabyte)
      expect(run.worstLagMs).toBeLessThan(250)
    },
    60_000,
  )
})
