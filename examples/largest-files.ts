// A code-mode program: `npx qilin-tools run examples/largest-files.ts`.
//
// It runs in a sandbox against the tools configured in examples/qilin.config.json: the workspace toolkit on
// examples/workspace/. The listing and every file's details stay inside the program; only the lines it prints
// come back, which is the point of code mode. The two lines below are for the editor and are erased before it runs.
import type { Tools } from './workspace-sdk.js'

declare const tools: Tools

const { files } = await tools.glob({ pattern: '**/*' })
const details = await Promise.all(files.map((path) => tools.file_info({ path })))
const largest = details.sort((left, right) => right.size - left.size).slice(0, 5)
const total = details.reduce((sum, file) => sum + file.size, 0)
const width = String(largest[0]?.size ?? 0).length

console.log(`${files.length} files, ${total} bytes in all; the largest:`)
for (const file of largest) console.log(`${String(file.size).padStart(width)} bytes  ${file.path}`)
