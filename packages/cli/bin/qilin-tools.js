#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536 node --no-node-snapshot
// The `qilin-tools` command. A file that exists before the build, so npm links the command on install in a fresh
// clone too; the code is in dist/. isolated-vm needs the built-in snapshot off, hence the flag above; the fixed
// mmap threshold makes glibc give back at once the array buffers a finished program freed (see below).
// Without it, glibc keeps them in its arenas: 129 MB over baseline after one flood (npm run bench hostile-programs).
// Code mode's runtime sets the same threshold through its addon (fixMmapThreshold); this line still covers an
// install where that addon did not build, and allocations made before the runtime starts.
import '../dist/main.js'
