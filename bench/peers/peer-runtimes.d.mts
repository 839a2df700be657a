/** One peer code-mode runtime, driven the same way as ours in bench/ptc-node.bench.ts. */
export interface PeerRuntime {
  readonly name: string
  /** How a program calls `noop({ i })` in this runtime. */
  readonly call: (index: string) => string
  /** Runs one program; rejects when the program failed. */
  readonly run: (code: string) => Promise<void>
}

/** Each peer, or why it cannot run here. */
export function loadPeers(): Promise<
  (
    | { readonly ok: true; readonly runtime: PeerRuntime }
    | { readonly ok: false; readonly name: string; readonly reason: string }
  )[]
>
