import ivm from 'isolated-vm'
import { ToolRuntimeError } from 'qilin-tools/internal/errors/tool-runtime-error.js'
import { sandboxPrelude } from './sandbox-prelude.js'

/** A fresh isolate with the prelude installed, waiting for one program. Never reused after it. */
export interface PreparedSandbox {
  readonly isolate: ivm.Isolate
  readonly context: ivm.Context
  /** `deliver(text)` inside the isolate: a tool result or timer firing, as JSON text. */
  readonly deliver: ivm.Reference<(text: string) => void>
  /** `start(program, settingsText)` inside the isolate. */
  readonly start: ivm.Reference<(program: unknown, settings: string) => Promise<void>>
  /** Where the isolate's messages go; the run that takes this sandbox sets it. */
  readonly channel: { receive: (text: string) => void }
}

/** Builds one sandbox: isolate, context, prelude. The only thing handed in is a string-copying callback. */
export async function prepareSandbox(heapMegabytes: number): Promise<PreparedSandbox> {
  const isolate = new ivm.Isolate({ memoryLimit: heapMegabytes })
  try {
    const context = await isolate.createContext()
    const channel = { receive: (_text: string) => {} }
    const send = new ivm.Callback((text: unknown) => (typeof text === 'string' ? channel.receive(text) : undefined), {
      ignored: true,
    })
    const prelude = await isolate.compileScript(sandboxPrelude, { filename: 'prelude.js' })
    const install = (await prelude.run(context, { reference: true })) as ivm.Reference<(send: unknown) => unknown>
    const api = (await install.apply(undefined, [send], { result: { reference: true } })) as ivm.Reference<
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

/**
 * Keeps `size` sandboxes prepared ahead of time so a run starts without building an isolate.
 * With `size` 0 every run builds its own.
 */
export class IsolatePool {
  readonly #size: number
  readonly #heapMegabytes: number
  readonly #ready: Promise<PreparedSandbox>[] = []
  #closed = false

  constructor(options: { size: number; heapMegabytes: number }) {
    this.#size = options.size
    this.#heapMegabytes = options.heapMegabytes
    this.#fill()
  }

  /**
   * Hands out a prepared sandbox. The replacement is prepared by `refill`, after the run: creating an
   * isolate blocks the main thread for about a millisecond, which would land on this run's start.
   */
  async acquire(): Promise<PreparedSandbox> {
    if (this.#closed) throw new ToolRuntimeError('the PTC runtime is closed')
    return this.#ready.shift() ?? prepareSandbox(this.#heapMegabytes)
  }

  /** Tops the pool back up to its size. */
  refill(): void {
    this.#fill()
  }

  /** Waits until every pooled sandbox is prepared (for benches and tests that measure warm starts). */
  async warm(): Promise<void> {
    await Promise.allSettled(this.#ready)
  }

  async close(): Promise<void> {
    this.#closed = true
    const ready = this.#ready.splice(0)
    for (const settled of await Promise.allSettled(ready)) {
      if (settled.status === 'fulfilled') disposeSandbox(settled.value)
    }
  }

  #fill(): void {
    while (!this.#closed && this.#ready.length < this.#size) {
      const prepared = prepareSandbox(this.#heapMegabytes)
      prepared.catch(() => {})
      this.#ready.push(prepared)
    }
  }
}
