import { type ChildProcess, spawn } from 'node:child_process'
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** How long a server may take to exit once its stdin is closed, and then once its group got SIGTERM. */
const EXIT_WAIT_MS = 1_000
/** The longest message line a server may send; past it without a newline, it is not speaking MCP. */
const MAX_LINE_BYTES = 10 * 1024 * 1024
/** How many lines that are not JSON-RPC are reported through `onerror`; the rest are passed over in silence. */
const REPORTED_BAD_LINES = 8
const OPEN_BRACE = 0x7b

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
  #badLines = 0
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
      const tail = rest.subarray(0, end)
      rest = rest.subarray(end + 1)
      if (this.#pending.length === 0) this.#deliver(tail)
      else {
        this.#deliver(Buffer.concat([...this.#pending.splice(0), tail]))
        this.#pendingBytes = 0
      }
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

  /**
   * A JSON-RPC message is an object, so a line whose first visible byte is not `{` is passed over without being
   * decoded or parsed: a server printing its logs to stdout costs a byte scan per line, not a thrown parse error.
   */
  #deliver(bytes: Buffer): void {
    let start = 0
    while (start < bytes.length && isBlank(bytes[start] as number)) start += 1
    if (start === bytes.length) return
    if (bytes[start] !== OPEN_BRACE) {
      this.#reportBadLine(() => bytes.subarray(start, start + 80).toString('utf8'))
      return
    }
    const text = bytes.toString('utf8')
    const line = text.endsWith('\r') ? text.slice(0, -1) : text
    let message: JSONRPCMessage
    try {
      message = deserializeMessage(line)
    } catch {
      this.#reportBadLine(() => line.slice(0, 80))
      return
    }
    this.onmessage?.(message)
  }

  #reportBadLine(excerpt: () => string): void {
    this.#badLines += 1
    if (this.#badLines > REPORTED_BAD_LINES) return
    const more = this.#badLines === REPORTED_BAD_LINES ? ' (further such lines are not reported)' : ''
    this.onerror?.(new Error(`the server wrote a line on stdout that is not JSON-RPC: ${excerpt()}${more}`))
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

/** Space, tab, carriage return. */
function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d
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
