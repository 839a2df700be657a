import ivm from 'isolated-vm'
import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { ToolRuntimeError } from 'qilin-tools/internal/errors/tool-runtime-error.js'
import { sandboxPrelude } from './sandbox-prelude.js'

/** A fresh isolate with the prelude installed, waiting for one program. Never reused after it. */
export interface PreparedSandbox {
  readonly isolate: ivm.Isolate
  readonly context: ivm.Context
  /** `deliver(text)` inside the isolate: tool results and timer firings, a JSON array of host messages. */
  readonly deliver: ivm.Reference<(text: string) => void>
  /** `start(program, settingsText)` inside the isolate. */
  readonly start: ivm.Reference<(program: unknown, settings: string) => Promise<void>>
  /** Where the isolate's batches go; the run that takes this sandbox sets both. */
  readonly channel: SandboxChannel
}

/** The host's ends of the two ways a batch leaves the isolate. */
export interface SandboxChannel {
  /** A batch sent without waiting (prints, timers, the start and the end). */
  receive: (text: string) => void
  /** A batch that carries a call; the isolate's thread waits for the answer (host messages as a JSON array). */
  exchange: (text: string) => Promise<string>
}

/** Builds one sandbox: isolate, context, prelude. All that is handed in are two string-copying functions. */
export async function prepareSandbox(heapMegabytes: number): Promise<PreparedSandbox> {
  const isolate = new ivm.Isolate({ memoryLimit: heapMegabytes })
  try {
    const context = await isolate.createContext()
    const channel: SandboxChannel = { receive: () => {}, exchange: async () => '' }
    const send = new ivm.Callback((text: unknown) => (typeof text === 'string' ? channel.receive(text) : undefined), {
      ignored: true,
    })
    const exchange = new ivm.Reference((text: unknown) =>
      typeof text === 'string' ? channel.exchange(text) : Promise.resolve(''),
    )
    const prelude = await isolate.compileScript(sandboxPrelude, { filename: 'prelude.js' })
    const install = (await prelude.run(context, { reference: true })) as ivm.Reference<
      (send: unknown, exchange: unknown) => unknown
    >
    const api = (await install.apply(undefined, [send, exchange], { result: { reference: true } })) as ivm.Reference<
      Record<string, unknown>
    >
    const deliver = (await api.get('deliver', { reference: true })) as PreparedSandbox['deliver']
    const start = (await api.get('start', { reference: true })) as PreparedSandbox['start']
    return { isolate, context, deliver, start, channel }
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose()
    throw error
  }
}

export function disposeSandbox(sandbox: PreparedSandbox): void {
  if (!sandbox.isolate.isDisposed) sandbox.isolate.dispose()
}

/** Whether a pool size is usable: a whole number from 0 up (0 builds every sandbox on demand). */
export function requirePoolSize(poolSize: number): number {
  if (!Number.isSafeInteger(poolSize) || poolSize < 0) {
    throw new InvalidArgumentError(`poolSize must be a whole number of at least 0, got ${String(poolSize)}`)
  }
  return poolSize
}

/**
 * Keeps `size` sandboxes prepared ahead of time so a run starts without building an isolate; each serves one run
 * and is disposed with it. With `size` 0 every run builds its own. Never more than `size` wait prepared.
 */
export class IsolatePool {
  readonly #size: number
  readonly #prepare: () => Promise<PreparedSandbox>
  readonly #ready: Promise<PreparedSandbox>[] = []
  /** A refill scheduled for the next turn of the event loop and not yet begun. */
  #scheduled: Promise<void> | undefined
  #closed = false

  constructor(options: {
    readonly size: number
    readonly heapMegabytes: number
    /** Builds one sandbox (tests hand in their own). @default `prepareSandbox` */
    readonly prepare?: (heapMegabytes: number) => Promise<PreparedSandbox>
  }) {
    this.#size = requirePoolSize(options.size)
    const prepare = options.prepare ?? prepareSandbox
    this.#prepare = () => prepare(options.heapMegabytes)
    this.#fill()
  }

  /**
   * Hands out a prepared sandbox, or builds one when none is ready. A sandbox whose isolate is already gone (it
   * failed to build, or died waiting) is dropped, never handed out. Taking one does not refill the pool.
   */
  async acquire(): Promise<PreparedSandbox> {
    if (this.#closed) throw new ToolRuntimeError('the PTC runtime is closed')
    for (let next = this.#ready.shift(); next !== undefined; next = this.#ready.shift()) {
      const sandbox = await next.catch(() => undefined)
      if (sandbox !== undefined && !sandbox.isolate.isDisposed) return sandbox
      if (sandbox !== undefined) disposeSandbox(sandbox)
    }
    return this.#prepare()
  }

  /**
   * Tops the pool back up to its size on the next turn of the event loop. Building an isolate holds the main
   * thread for a millisecond or more, so a run calls this as it hands its result back, never before.
   */
  refillSoon(): void {
    if (this.#scheduled !== undefined || this.#closed || this.#ready.length >= this.#size) return
    this.#scheduled = new Promise((resolve) =>
      setImmediate(() => {
        this.#scheduled = undefined
        this.#fill()
        resolve()
      }),
    )
  }

  /** Sandboxes prepared or being prepared now. */
  get prepared(): number {
    return this.#ready.length
  }

  /** Waits until every pooled sandbox is prepared, a scheduled refill included (benches and tests). */
  async warm(): Promise<void> {
    await this.#scheduled
    await Promise.allSettled(this.#ready)
  }

  async close(): Promise<void> {
    this.#closed = true
    await this.#scheduled
    const ready = this.#ready.splice(0)
    for (const settled of await Promise.allSettled(ready)) {
      if (settled.status === 'fulfilled') disposeSandbox(settled.value)
    }
  }

  #fill(): void {
    while (!this.#closed && this.#ready.length < this.#size) {
      const prepared = this.#prepare()
      prepared.catch(() => {})
      this.#ready.push(prepared)
    }
  }
}
