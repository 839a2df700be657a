import { descendantsOf, listProcesses } from './process-tree.js'
import { STOP_SIGNALS, type StopSignalName } from './stop-signal.js'

/**
 * Ends the CLI now, for a stop that could not close in time: SIGKILLs every descendant process and the process
 * group each one leads (which also reaches members already orphaned, such as a command a killed `bash` started),
 * then dies by `signal` itself. Dying by the signal runs no exit handlers, so an isolate still being torn down on
 * isolated-vm's thread cannot crash the exit; a shell reports it as 128 plus the signal's number, like `exit`.
 */
export function forceExit(signal: StopSignalName, why: string): void {
  process.stderr.write(`qilin-tools: ${why}; killing what is left\n`)
  const processes = listProcesses()
  const ownGroup = processes.find((entry) => entry.pid === process.pid)?.groupId
  for (const child of descendantsOf(process.pid, processes)) {
    if (child.groupId === child.pid && child.groupId !== ownGroup) kill(-child.groupId)
    kill(child.pid)
  }
  // With no listener left, Node restores the default action, which ends the process.
  process.removeAllListeners(signal)
  process.kill(process.pid, signal)
  // Only reached when another listener still holds the signal.
  setImmediate(() => process.exit(STOP_SIGNALS[signal]))
}

function kill(target: number): void {
  try {
    process.kill(target, 'SIGKILL')
  } catch {
    // already gone
  }
}
