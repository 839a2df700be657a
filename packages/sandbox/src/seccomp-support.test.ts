import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { seccompUnavailable } from './seccomp-support.js'

const directory = mkdtempSync(join(tmpdir(), 'qilin-seccomp-support-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

function file(name: string, text: string): string {
  const path = join(directory, name)
  writeFileSync(path, text)
  return path
}

const missing = join(directory, 'missing')
const onThisHost = process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64')

describe.skipIf(!onThisHost)('seccompUnavailable', () => {
  it('finds the filter usable on this Linux host', () => {
    expect(seccompUnavailable()).toBeUndefined()
  })

  it('names the actions a kernel does not offer', () => {
    const actions = file('old-actions', 'kill_thread trap errno trace allow\n')
    expect(seccompUnavailable({ actions, status: missing })).toBe("the kernel's seccomp offers no kill_process action")
  })

  it('falls back to the Seccomp: line of /proc/self/status without /proc/sys', () => {
    const status = file('status', 'Name:\tnode\nSeccomp:\t0\nSeccomp_filters:\t0\n')
    expect(seccompUnavailable({ actions: missing, status })).toBeUndefined()
    const without = file('status-without', 'Name:\tnode\nNoNewPrivs:\t0\n')
    expect(seccompUnavailable({ actions: missing, status: without })).toBe(
      'the kernel reports no seccomp support (no Seccomp: line in /proc/self/status)',
    )
  })
})
