import { describe, expect, it } from 'vitest'
import { bubblewrapArguments, shellEtcPaths } from './bubblewrap-arguments.js'

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

  it('gives it its own /proc, /dev and a sized tmpfs /tmp under the workspace mount', () => {
    expect(valuesAfter(args, '--proc')).toEqual([['/proc']])
    expect(valuesAfter(args, '--dev')).toEqual([['/dev']])
    expect(valuesAfter(args, '--size', 3)).toEqual([['1024', '--tmpfs', '/tmp']])
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
    expect(open).not.toContain('--size')
  })
})
