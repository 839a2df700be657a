import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import { type StripperMessage, stripWorkerSource } from './strip-worker-source.js'

export interface TypeStripperOptions {
  /** How long one program may take to strip before its worker is killed and replaced. Default 10 s. */
  readonly timeoutMs?: number
}

/** Why a strip produced nothing: the worker broke on the program, took too long, or went away. */
export type StripFaultReason = 'fault' | 'timeout' | 'exited'

/** One program's answer: JavaScript, amaro's own refusal (syntax it rejects), or a fault that cost the worker. */
export type StripAnswer =
  | { readonly kind: 'stripped'; readonly javascript: string }
  | {
      readonly kind: 'refused'
      readonly code: string
      readonly message: string
      readonly startLine?: number
      readonly startColumn?: number
    }
  | { readonly kind: 'fault'; readonly reason: StripFaultReason; readonly name: string; readonly message: string }

interface Pending {
  readonly worker: Worker
  timer: NodeJS.Timeout
  readonly resolve: (answer: StripAnswer) => void
}

/** How long a new worker may take to load amaro before the program waiting on it fails. */
const startMs = 30_000

const amaroPath = createRequire(import.meta.url).resolve('amaro')

/**
 * Strips types in a worker thread that owns amaro's WebAssembly instance. A fault (a trap, a stack overflow, a
 * deadline) poisons that instance for every later call, so the worker is terminated and the next program gets a
 * fresh one. Programs are stripped one at a time; the host's event loop never runs SWC itself.
 */
export class TypeStripper {
  readonly #timeoutMs: number
  #worker: Worker | undefined
  #ready = false
  #pending: Pending | undefined
  #queue: Promise<unknown> = Promise.resolve()
  #started = 0

  constructor(options: TypeStripperOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 10_000
  }

  /** Workers started so far: one more after each fault. */
  get workersStarted(): number {
    return this.#started
  }

  /** Strips one program text; never rejects. */
  strip(source: string): Promise<StripAnswer> {
    const answer = this.#queue.then(() => this.#stripNow(source))
    this.#queue = answer
    return answer
  }

  /** Terminates the current worker; a later `strip` starts a fresh one. */
  async close(): Promise<void> {
    const worker = this.#worker
    if (worker === undefined) return
    this.#settle(worker, { kind: 'fault', reason: 'exited', name: 'Error', message: 'the type stripper was closed' })
    await worker.terminate()
  }

  #stripNow(source: string): Promise<StripAnswer> {
    return new Promise((resolve) => {
      let worker: Worker
      try {
        worker = this.#worker ?? this.#start()
      } catch (error) {
        resolve({ kind: 'fault', reason: 'exited', name: 'Error', message: thrownMessage(error) })
        return
      }
      const timer = this.#deadline(worker, this.#ready ? this.#timeoutMs : startMs + this.#timeoutMs)
      this.#pending = { worker, timer, resolve }
      worker.ref()
      worker.postMessage(source)
    })
  }

  #deadline(worker: Worker, ms: number): NodeJS.Timeout {
    return setTimeout(() => {
      this.#settle(worker, {
        kind: 'fault',
        reason: 'timeout',
        name: 'Error',
        message: `stripping took longer than ${this.#timeoutMs} ms`,
      })
    }, ms)
  }

  #start(): Worker {
    const worker = new Worker(stripWorkerSource, {
      eval: true,
      workerData: { amaroPath },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    })
    this.#started++
    this.#worker = worker
    this.#ready = false
    worker.unref()
    worker.on('message', (message: unknown) => {
      if (isReady(message)) this.#readied(worker)
      else this.#settle(worker, readMessage(message))
    })
    worker.on('error', (error) => {
      this.#settle(worker, { kind: 'fault', reason: 'exited', name: 'Error', message: thrownMessage(error) })
    })
    worker.on('exit', (code) => {
      this.#settle(worker, {
        kind: 'fault',
        reason: 'exited',
        name: 'Error',
        message: `the type stripper exited with code ${code}`,
      })
    })
    return worker
  }

  /** The pending program's deadline starts over now that its worker has loaded amaro. */
  #readied(worker: Worker): void {
    if (this.#worker !== worker) return
    this.#ready = true
    const pending = this.#pending
    if (pending === undefined || pending.worker !== worker) return
    clearTimeout(pending.timer)
    pending.timer = this.#deadline(worker, this.#timeoutMs)
  }

  /** Answers the pending program if `worker` is still the one working on it; a fault retires that worker. */
  #settle(worker: Worker, answer: StripAnswer): void {
    if (answer.kind === 'fault' && this.#worker === worker) {
      this.#worker = undefined
      void worker.terminate()
    }
    const pending = this.#pending
    if (pending === undefined || pending.worker !== worker) return
    this.#pending = undefined
    clearTimeout(pending.timer)
    worker.unref()
    pending.resolve(answer)
  }
}

function isReady(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === 'ready'
}

/** Reads a worker's message defensively: it carries text derived from a hostile program. */
function readMessage(message: unknown): StripAnswer {
  const value = (typeof message === 'object' && message !== null ? message : {}) as Partial<Record<string, unknown>>
  const text = (field: unknown) => (typeof field === 'string' ? field : undefined)
  const count = (field: unknown) => (typeof field === 'number' ? field : undefined)
  const kind = value.kind as Exclude<StripperMessage['kind'], 'ready'> | undefined
  const javascript = text(value.javascript)
  if (kind === 'stripped' && javascript !== undefined) return { kind, javascript }
  const code = text(value.code)
  if (kind === 'refused' && code !== undefined) {
    const startLine = count(value.startLine)
    const startColumn = count(value.startColumn)
    return {
      kind,
      code,
      message: text(value.message) ?? code,
      ...(startLine === undefined ? {} : { startLine }),
      ...(startColumn === undefined ? {} : { startColumn }),
    }
  }
  return {
    kind: 'fault',
    reason: 'fault',
    name: text(value.name) ?? 'Error',
    message: text(value.message) ?? 'the type stripper sent an unreadable answer',
  }
}
