import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../test/support/system-requirement.js'
import { bubblewrapArguments, defaultShmBytes, type SandboxProfile, shellEtcPaths } from './bubblewrap-arguments.js'
import { findBubblewrap } from './find-bubblewrap.js'

const bubblewrap = { executable: '/usr/bin/bwrap', sizedTmpfs: true }

/** The values that follow each occurrence of `flag`. */
function valuesAfter(args: readonly string[], flag: string, count = 1): string[][] {
  return args.flatMap((arg, index) => (arg === flag ? [args.slice(index + 1, index + 1 + count)] : []))
}

describe('bubblewrapArguments', () => {
  const workspace = '/tmp/qilin-ws'
  const args = bubblewrapArguments(bubblewrap, {
    workspace,
    readOnlyPaths: shellEtcPaths,
    writablePaths: ['/tmp'],
    env: { PATH: '/usr/bin', LANG: 'C.UTF-8' },
    tmpBytes: 1024,
    seccompFd: 3,
  })

  it('unshares every namespace, drops capabilities, dies with its parent, in a session of its own', () => {
    expect(args.slice(0, 7)).toEqual([
      '--unshare-all',
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      '--clearenv',
      '--ro-bind',
    ])
    expect(args).not.toContain('--share-net')
    expect(args.at(-1)).toBe('--')
  })

  it('gives it its own /proc, a read-only /dev with a sized /dev/shm, and a sized tmpfs /tmp under the workspace mount', () => {
    expect(valuesAfter(args, '--proc')).toEqual([['/proc']])
    expect(valuesAfter(args, '--dev')).toEqual([['/dev']])
    // Read-only before /dev/shm is mounted: the remount reaches every mount below /dev.
    expect(valuesAfter(args, '--remount-ro')).toEqual([['/dev']])
    expect(args.indexOf('--remount-ro')).toBeLessThan(args.indexOf('/dev/shm'))
    expect(valuesAfter(args, '--size', 3)).toEqual([
      [String(defaultShmBytes), '--tmpfs', '/dev/shm'],
      ['1024', '--tmpfs', '/tmp'],
    ])
    expect(valuesAfter(bubblewrapArguments(bubblewrap, { shmBytes: 4096 }), '--size', 3)).toEqual([
      ['4096', '--tmpfs', '/dev/shm'],
    ])
    // The workspace may live under /tmp: its bind must come after the tmpfs, or the tmpfs would hide it.
    expect(args.indexOf('--tmpfs')).toBeLessThan(args.indexOf(workspace))
    expect(valuesAfter(args, '--bind', 2)).toContainEqual([workspace, workspace])
    expect(valuesAfter(args, '--chdir')).toEqual([[workspace]])
  })

  it('binds the system read-only and never /etc, /home or /root as a whole', () => {
    const readOnly = valuesAfter(args, '--ro-bind').map(([path]) => path)
    expect(readOnly).toContain('/usr')
    expect(readOnly).toContain('/etc/passwd')
    expect(readOnly).not.toContain('/etc')
    expect(readOnly).not.toContain('/etc/shadow')
    const everything = [...valuesAfter(args, '--bind', 2).flat(), ...readOnly]
    for (const hidden of ['/', '/home', '/root', '/etc', '/proc', '/sys', '/run'])
      expect(everything).not.toContain(hidden)
  })

  it('sets only the environment it is given, and the seccomp descriptor', () => {
    expect(valuesAfter(args, '--setenv', 2)).toEqual([
      ['PATH', '/usr/bin'],
      ['LANG', 'C.UTF-8'],
    ])
    expect(valuesAfter(args, '--seccomp')).toEqual([['3']])
  })

  it('shares the network only when asked, and skips paths that do not exist', () => {
    const open = bubblewrapArguments(bubblewrap, { network: true, writablePaths: ['/nonexistent/qilin'] })
    expect(open.slice(0, 2)).toEqual(['--unshare-all', '--share-net'])
    expect(open).not.toContain('/nonexistent/qilin')
    expect(valuesAfter(open, '--chdir')).toEqual([['/tmp']])
    expect(valuesAfter(open, '--size', 3)).toEqual([[String(defaultShmBytes), '--tmpfs', '/dev/shm']])
  })

  it('binds prepared, inode-capped tmpfs directories at /tmp and /dev/shm instead, as the uid it is given', () => {
    const prepared = bubblewrapArguments(bubblewrap, {
      tmpSource: '/run/q/tmp',
      shmSource: '/run/q/shm',
      tmpBytes: 1024,
      identity: { uid: 1000, gid: 100 },
    })
    expect(prepared).not.toContain('--size')
    expect(prepared).not.toContain('--tmpfs')
    expect(valuesAfter(prepared, '--bind', 2)).toEqual([
      ['/run/q/shm', '/dev/shm'],
      ['/run/q/tmp', '/tmp'],
    ])
    expect(prepared.indexOf('--remount-ro')).toBeLessThan(prepared.indexOf('/run/q/shm'))
    expect([...valuesAfter(prepared, '--uid'), ...valuesAfter(prepared, '--gid')]).toEqual([['1000'], ['100']])
  })

  it('leaves /dev/shm a directory of the read-only /dev where bubblewrap cannot size a tmpfs', () => {
    const unsized = bubblewrapArguments({ ...bubblewrap, sizedTmpfs: false }, { tmpBytes: 1024 })
    expect(unsized).not.toContain('--size')
    expect(unsized).not.toContain('/dev/shm')
    expect(valuesAfter(unsized, '--remount-ro')).toEqual([['/dev']])
  })
})

describe.skipIf(!hasSystemPart('bubblewrap', 'sized /dev/shm'))('/dev inside a real sandbox (issue 14)', () => {
  const found = findBubblewrap()
  /** Runs `script` under bash in the profile's sandbox; its stdout, or the error's. */
  const inside = (profile: SandboxProfile, script: string) => {
    if ('problem' in found) throw new Error(found.problem)
    const command = [...bubblewrapArguments(found, { readOnlyPaths: shellEtcPaths, ...profile }), 'bash', '-c', script]
    return execFileSync(found.executable, command, { encoding: 'utf8', timeout: 20_000, env: {} })
  }

  it('stops a write to /dev/shm at its size, where it is freed with the sandbox, and refuses files in /dev', () => {
    const shmemKb = () => Number(/^Shmem:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1])
    const before = shmemKb()
    const output = inside(
      { shmBytes: 4 * 1024 * 1024 },
      'head -c 64M /dev/zero > /dev/shm/fill 2>/dev/null; echo "shm exit $? size $(stat -c %s /dev/shm/fill)"; touch /dev/planted 2>&1 | sed "s/.*: //"; echo ok > /dev/null && echo "null writable"',
    )
    expect(output).toBe(`shm exit 1 size ${4 * 1024 * 1024}\nRead-only file system\nnull writable\n`)
    // Other tests may hold shared memory meanwhile; the 64 MiB the program asked for is far past that noise.
    expect(shmemKb() - before).toBeLessThan(32 * 1024)
  })
})
