import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { needsProcessBudget, openProcessBudget } from './process-budget.js'

describe('process budget', () => {
  it('is needed exactly where the kernel ignores RLIMIT_NPROC: under root', () => {
    expect(needsProcessBudget()).toBe(process.getuid?.() === 0)
  })

  it.skipIf(!needsProcessBudget())('caps the processes of everything put under it, and is removed after', async () => {
    const budget = openProcessBudget(6)
    if ('problem' in budget) throw new Error(budget.problem)
    // Each fork the budget refuses fails with EAGAIN instead of adding a process.
    const forks = [
      'import os, sys, time',
      "open(sys.argv[1], 'w').write(str(os.getpid()))",
      'children = []',
      'for _ in range(12):',
      '    try:',
      '        pid = os.fork()',
      '    except BlockingIOError:',
      '        continue',
      '    if pid == 0:',
      '        time.sleep(5)',
      '        os._exit(0)',
      '    children.append(pid)',
      'print(len(children))',
      'for pid in children:',
      '    os.kill(pid, 9)',
    ].join('\n')
    const started = Number(execFileSync('python3', ['-c', forks, budget.procsFile], { encoding: 'utf8' }).trim())
    // The parent counts against the budget of six.
    expect(started).toBe(5)
    budget.release()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(existsSync(dirname(budget.procsFile))).toBe(false)
  })

  it.skipIf(!needsProcessBudget())('sweeps the empty budgets a host that is gone left behind', () => {
    const first = openProcessBudget(4)
    if ('problem' in first) throw new Error(first.problem)
    const abandoned = join(dirname(dirname(first.procsFile)), 'qilin-sandbox-999999999-1')
    mkdirSync(abandoned)
    first.release()
    const second = openProcessBudget(4)
    if ('problem' in second) throw new Error(second.problem)
    second.release()
    expect(existsSync(abandoned)).toBe(false)
  })
})
