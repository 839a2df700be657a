#!/usr/bin/env -S node --no-node-snapshot
// The `qilin-tools` command. isolated-vm needs the built-in snapshot off, hence the flag above.
import { COMMANDS } from './commands.js'
import { processIo } from './process-io.js'
import { runCli } from './run-cli.js'

const exitCode = await runCli(process.argv.slice(2), processIo(), COMMANDS)
// Servers and sandboxes are closed by the commands; exiting here also ends any straggling child process.
process.exit(exitCode)
