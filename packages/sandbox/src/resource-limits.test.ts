import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { defaultShellLimits, ulimitPrologue } from './resource-limits.js'

/** A real bash without capabilities, as in the sandbox (under root, CAP_SYS_RESOURCE would let it raise limits). */
function unprivilegedBash(script: string): string {
  const bash = ['bash', '-c', script]
  const [command = 'bash', ...args] =
    process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-all', '--inh-caps=-all', ...bash] : bash
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

describe('ulimitPrologue', () => {
  it('sets soft and hard limits, so the command cannot raise them again', () => {
    const limits = { processes: 77, addressSpaceBytes: 2 * 1024 ** 3, fileBytes: 1024 ** 2, openFiles: 64 }
    const queries = ['-S -u', '-S -v', '-S -f', '-S -n', '-S -c', '-H -u', '-H -n'].map((flags) => `ulimit ${flags}`)
    const script = `${ulimitPrologue(limits)}\n${queries.join('; ')}; ulimit -n 65 2>/dev/null || echo kept`
    expect(unprivilegedBash(script).trim().split('\n')).toEqual([
      '77',
      '2097152',
      '1024',
      '64',
      '0',
      '77',
      '64',
      'kept',
    ])
  })

  it('refuses to run the command when a limit cannot be applied', () => {
    const script = `ulimit -n 32 || exit 9; ${ulimitPrologue({ ...defaultShellLimits, openFiles: 64 })}\necho ran`
    expect(() => unprivilegedBash(script)).toThrow(/the sandbox could not apply its resource limits/)
  })
})
