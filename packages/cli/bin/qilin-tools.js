#!/usr/bin/env -S node --no-node-snapshot
// The `qilin-tools` command. A file that exists before the build, so npm links the command on install in a fresh
// clone too; the code is in dist/ (isolated-vm needs the built-in snapshot off, hence the flag above).
import '../dist/main.js'
