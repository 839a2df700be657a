#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536 node --no-node-snapshot
// The `qilin-tools` command. isolated-vm needs the built-in snapshot off, and glibc's fixed mmap threshold gives
// back at once the array buffers a finished program freed (bin/qilin-tools.js says why): hence the line above.
import { forceExit } from './force-exit.js'
import { STOP_SIGNALS, watchStopSignals } from './stop-signal.js'

/** How long the process may linger after its command returned before it exits anyway. */
const LINGER_MS = 3_000

// Listening before the commands load: until then a signal would end the process without closing anything.
const stop = watchStopSignals({ source: process, force: forceExit })
const [{ COMMANDS }, { processIo }, { runCli }] = await Promise.all([
  import('./commands.js'),
  import('./process-io.js'),
  import('./run-cli.js'),
])
const exitCode = await runCli(process.argv.slice(2), processIo(stop.signal), COMMANDS)
const received = stop.received()
process.exitCode = received === undefined ? exitCode : STOP_SIGNALS[received]

// The process ends when its event loop drains, not by process.exit(): isolated-vm tears a disposed isolate down on
// its own thread and holds the loop until that is done, while process.exit() shuts V8's platform down under that
// thread, which segfaults (exit 139) when Ctrl-C stopped a busy program. What the commands did not close (a leaked
// handle) is cut short after a while; a stop signal has its own grace period in the watch.
if (received === undefined) setTimeout(() => process.exit(), LINGER_MS).unref()
