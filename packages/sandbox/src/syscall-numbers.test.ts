import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { syscallArchitectures, syscallNames } from './syscall-numbers.js'

/** The kernel's own tables, as installed by linux-libc-dev (a dependency of any C toolchain). */
const headers = {
  x64: ['/usr/include/x86_64-linux-gnu/asm/unistd_64.h', '/usr/include/asm/unistd_64.h'],
  arm64: ['/usr/include/asm-generic/unistd.h'],
} satisfies Record<keyof typeof syscallArchitectures, string[]>

function definedNumbers(path: string): Map<string, number> {
  const numbers = new Map<string, number>()
  for (const match of readFileSync(path, 'utf8').matchAll(/^#define __NR_(\w+)\s+(\d+)\s*$/gm)) {
    numbers.set(match[1] as string, Number(match[2]))
  }
  return numbers
}

/** Calls newer than Debian 12's headers, checked against the kernel's syscall tables by hand. */
const newerThanHeaders = new Set(['open_tree_attr'])

describe('the syscall tables', () => {
  for (const [arch, paths] of Object.entries(headers)) {
    const path = paths.find((candidate) => existsSync(candidate))
    it.skipIf(path === undefined)(`${arch} agrees with ${path ?? paths[0]}`, () => {
      const defined = definedNumbers(path as string)
      const table = syscallArchitectures[arch as keyof typeof syscallArchitectures].numbers
      for (const name of syscallNames) {
        const expected = defined.get(name) ?? (newerThanHeaders.has(name) ? table[name] : undefined)
        expect({ name, number: table[name] }).toEqual({ name, number: expected })
      }
    })
  }

  it('has the calls every profile relies on for both architectures', () => {
    for (const { numbers } of Object.values(syscallArchitectures)) {
      for (const name of ['clone', 'clone3', 'execve', 'kill', 'prlimit64', 'socket'] as const) {
        expect(numbers[name]).toBeTypeOf('number')
      }
    }
  })
})
