import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memoryBudgetProblem, openMemoryBudget } from './memory-budget.js'

const problem = memoryBudgetProblem()
const megabyte = 1024 * 1024

/** Joins the budget, then touches `megabytes` of anonymous memory a page at a time; prints `survived` if it can. */
const allocate = (megabytes: number) =>
  [
    'import sys',
    "open(sys.argv[1], 'w').write('0')",
    `block = bytearray(${megabytes} << 20)`,
    'for offset in range(0, len(block), 4096):',
    '    block[offset] = 1',
    "print('survived')",
  ].join('\n')

function runUnder(procsFile: string, megabytes: number): { output: string; status: number | null } {
  try {
    return { output: execFileSync('python3', ['-c', allocate(megabytes), procsFile], { encoding: 'utf8' }), status: 0 }
  } catch (error) {
    return {
      output: String((error as { stdout?: unknown }).stdout ?? ''),
      status: (error as { status: number }).status,
    }
  }
}

describe('memory budget', () => {
  it.skipIf(process.getuid?.() !== 0)('says which cgroup it could not write, run as an unprivileged user', () => {
    // Import as root, then drop to nobody: the checkout may sit in a directory only root can read (CI's mktemp).
    const probe = `import('${import.meta.dirname}/memory-budget.ts').then((m) => { process.setgroups([]); process.setgid(65534); process.setuid(65534); console.log(m.memoryBudgetProblem()) })`
    const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', probe], {
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(output).toMatch(
      /^(the memory cgroup at \/\S+ is not writable \(EACCES|no memory cgroup controller is mounted)/,
    )
  })

  it.skipIf(problem !== undefined)(
    'kills what goes past it and says so, spares what stays within it, and is removed after',
    async () => {
      const budget = openMemoryBudget(64 * megabyte)
      if ('problem' in budget) throw new Error(budget.problem)
      expect(runUnder(budget.procsFile, 16)).toEqual({ output: 'survived\n', status: 0 })
      expect(budget.killedForMemory()).toBe(false)
      const over = runUnder(budget.procsFile, 256)
      expect(over.output).toBe('')
      expect(budget.killedForMemory()).toBe(true)
      budget.release()
      for (let waited = 0; existsSync(dirname(budget.procsFile)) && waited < 2_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(existsSync(dirname(budget.procsFile))).toBe(false)
    },
  )

  it.skipIf(problem !== undefined)('holds its limit in the cgroup file the kernel reads', () => {
    const budget = openMemoryBudget(96 * megabyte)
    if ('problem' in budget) throw new Error(budget.problem)
    const directory = dirname(budget.procsFile)
    const limitFile = existsSync(`${directory}/memory.max`) ? 'memory.max' : 'memory.limit_in_bytes'
    expect(Number(readFileSync(`${directory}/${limitFile}`, 'utf8'))).toBe(96 * megabyte)
    budget.release()
  })
})
