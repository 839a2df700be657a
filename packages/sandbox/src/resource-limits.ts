/** Per-process resource limits of a sandboxed shell; each is also the hard limit, so the command cannot raise it. */
export interface ResourceLimits {
  /** RLIMIT_NPROC. Enforced by the kernel only for a non-root user; under root a process budget bounds it. */
  readonly processes: number
  /** RLIMIT_AS, per process. */
  readonly addressSpaceBytes: number
  /** RLIMIT_FSIZE: the largest file a process may write. */
  readonly fileBytes: number
  /** RLIMIT_NOFILE. */
  readonly openFiles: number
}

export const defaultShellLimits: ResourceLimits = {
  processes: 256,
  addressSpaceBytes: 8 * 1024 * 1024 * 1024,
  fileBytes: 1024 * 1024 * 1024,
  openFiles: 1024,
}

/**
 * A bash prologue that applies `limits` (soft and hard, core dumps off) before the command runs, and refuses to run
 * the command when the shell cannot apply them. Bash counts `-v` and `-f` in KiB.
 */
export function ulimitPrologue(limits: ResourceLimits): string {
  const kib = (bytes: number) => Math.max(1, Math.floor(bytes / 1024))
  const values = `-c 0 -u ${limits.processes} -v ${kib(limits.addressSpaceBytes)} -f ${kib(limits.fileBytes)} -n ${limits.openFiles}`
  return `ulimit -H -S ${values} || { echo 'qilin: the sandbox could not apply its resource limits' >&2; exit 126; }`
}
