import { type ChildProcess, spawn } from 'node:child_process'
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** How long a server may take to exit once its stdin is closed, and then once its group got SIGTERM. */
const EXIT_WAIT_MS = 1_000
/** The longest message line a server may send; past it without a newline, it is not speaking MCP. */
const MAX_LINE_BYTES = 10 * 1024 * 1024

export interface ServerProcessOptions {
  readonly command: string
  readonly args: readonly string[]
  /** Added to the SDK's small default environment (PATH, HOME…). */
  readonly env?: Readonly<Record<string, string>>
  readonly cwd?: string
  readonly stderr: 'pipe' | 'inherit' | 'ignore'
  /** Every chunk the server writes to a piped stderr (which is always drained, so it never blocks the server). */
  readonly onStderr?: (chunk: Buffer) => void
  /** Called once the process runs, before any message is sent: its `pid` is known from then on. */
  readonly onSpawn?: () => void
}

/**
 * MCP over stdio with a server started as the leader of its own process group, so stopping it reaches whatever it
 * started (the node an `npx` wrapper runs, a shell's children): closing ends its stdin, then sends the group
 * SIGTERM, then SIGKILL, and kills what the group still holds once the leader is gone. A terminal's Ctrl-C reaches
 * the CLI alone, which closes its servers in order instead of racing them.
 */
export class ServerProcessTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  readonly #options: ServerProcessOptions
  /** The start of a line not yet ended, kept as chunks so a long line is copied once, not once per chunk. */
  readonly #pending: Buffer[] = []
  #pendingBytes = 0
  #child: ChildProcess | undefined
  #running = false
  #closing: Promise<void> | undefined

  constructor(options: ServerProcessOptions) {
    this.#options = options
  }

  /** The server's process id (and process group id) once started. */
  get pid(): number | undefined {
    return this.#child?.pid
  }

  start(): Promise<void> {
    if (this.#child !== undefined) return Promise.reject(new Error('the MCP server process was already started'))
    const options = this.#options
    const child = spawn(options.command, [...options.args], {
      env: { ...getDefaultEnvironment(), ...options.env },
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stdio: ['pipe', 'pipe', options.stderr],
      detached: process.platform !== 'win32',
      windowsHide: true,
    })
    this.#child = child
    child.once('exit', () => {
      this.#running = false
    })
    child.once('close', () => this.onclose?.())
    child.stdin?.on('error', (error) => this.onerror?.(error))
    child.stdout?.on('error', (error) => this.onerror?.(error))
    child.stdout?.on('data', (chunk: Buffer) => this.#receive(chunk))
    child.stderr?.on('data', (chunk: Buffer) => options.onStderr?.(chunk))
    return new Promise((resolve, reject) => {
      child.once('spawn', () => {
        this.#running = true
        options.onSpawn?.()
        resolve()
      })
      child.once('error', (error) => {
        this.#running = false
        reject(error)
        this.onerror?.(error)
      })
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin
    if (!this.#running || stdin === undefined || stdin === null || this.#closing !== undefined) {
      return Promise.reject(new Error('the MCP server process is not running'))
    }
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve()
      else stdin.once('drain', () => resolve())
    })
  }

  close(): Promise<void> {
    this.#closing ??= this.#stop()
    return this.#closing
  }

  /** SIGKILLs the server's whole group now, for a start that failed or was given up. */
  kill(): void {
    this.#signalGroup('SIGKILL')
  }

  #receive(chunk: Buffer): void {
    let rest = chunk
    for (let end = rest.indexOf(10); end !== -1; end = rest.indexOf(10)) {
      const line = Buffer.concat([...this.#pending.splice(0), rest.subarray(0, end)]).toString('utf8')
      this.#pendingBytes = 0
      rest = rest.subarray(end + 1)
      this.#deliver(line.endsWith('\r') ? line.slice(0, -1) : line)
    }
    if (rest.length === 0) return
    this.#pending.push(rest)
    this.#pendingBytes += rest.length
    if (this.#pendingBytes > MAX_LINE_BYTES) {
      this.#pending.length = 0
      this.#pendingBytes = 0
      this.onerror?.(new Error(`the server sent more than ${MAX_LINE_BYTES} bytes without a newline`))
      void this.close()
    }
  }

  #deliver(line: string): void {
    if (line.trim() === '') return
    let message: JSONRPCMessage
    try {
      message = deserializeMessage(line)
    } catch (error) {
      this.onerror?.(error as Error)
      return
    }
    this.onmessage?.(message)
  }

  async #stop(): Promise<void> {
    const child = this.#child
    if (child === undefined) return
    try {
      child.stdin?.end()
    } catch {
      // its stdin is already gone
    }
    if (!(await exitedWithin(child, EXIT_WAIT_MS))) {
      this.#signalGroup('SIGTERM')
      if (!(await exitedWithin(child, EXIT_WAIT_MS))) this.#signalGroup('SIGKILL')
    }
    // What the server started and left in its group goes with it.
    this.#signalGroup('SIGKILL')
    await exitedWithin(child, EXIT_WAIT_MS)
    this.#pending.length = 0
  }

  #signalGroup(signal: NodeJS.Signals): void {
    const pid = this.#child?.pid
    if (pid === undefined) return
    try {
      process.kill(process.platform === 'win32' ? pid : -pid, signal)
    } catch {
      // the group is empty already
    }
  }
}

function exitedWithin(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit)
      resolve(false)
    }, ms)
    const onExit = () => {
      clearTimeout(timer)
      resolve(true)
    }
    child.once('exit', onExit)
  })
}
