/**
 * The script a type-stripping worker runs (CommonJS, given to `new Worker` as text so the same file serves the
 * TypeScript sources and the build). It loads amaro from `workerData.amaroPath` and answers each program text with
 * one `StripperMessage`. amaro's own report of a syntax it refuses is a plain object with a string `code`; anything
 * else thrown is a fault of the WebAssembly instance, after which the host discards this worker. It posts
 * `{ kind: 'ready' }` once amaro is loaded, so a program's deadline does not include the worker's start.
 */
export const stripWorkerSource = `
const { parentPort, workerData } = require('node:worker_threads')
const { transformSync } = require(workerData.amaroPath)
const text = (value) => (typeof value === 'string' ? value : undefined)
const count = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)
parentPort.postMessage({ kind: 'ready' })
parentPort.on('message', (source) => {
  let message
  try {
    message = { kind: 'stripped', javascript: transformSync(source, { mode: 'strip-only' }).code }
  } catch (error) {
    const isReport = error !== null && typeof error === 'object' && typeof error.code === 'string' && !(error instanceof Error)
    message = isReport
      ? { kind: 'refused', code: error.code, message: text(error.message), startLine: count(error.startLine), startColumn: count(error.startColumn) }
      : { kind: 'fault', name: text(error && error.name) ?? 'Error', message: text(error && error.message) ?? String(error) }
  }
  parentPort.postMessage(message)
})
`

/** What a stripping worker posts: that it is ready, then one answer per program. */
export type StripperMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'stripped'; readonly javascript: string }
  | {
      readonly kind: 'refused'
      readonly code: string
      readonly message?: string
      readonly startLine?: number
      readonly startColumn?: number
    }
  | { readonly kind: 'fault'; readonly name: string; readonly message: string }
