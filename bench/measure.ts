/** Shared timing helpers for `bench/*.bench.ts`: medians over many samples, printed as markdown. */

export interface Measurement {
  readonly medianNs: number
  readonly p90Ns: number
  readonly samples: number
}

/** Times `fn` in batches so that timer resolution does not dominate sub-microsecond work. */
export function measureSync(
  fn: () => unknown,
  options: { batch?: number; samples?: number; warmup?: number } = {},
): Measurement {
  const batch = options.batch ?? 1000
  const sampleCount = options.samples ?? 50
  for (let index = 0; index < (options.warmup ?? batch * 5); index++) fn()
  const perCall: number[] = []
  for (let sample = 0; sample < sampleCount; sample++) {
    const start = process.hrtime.bigint()
    for (let index = 0; index < batch; index++) fn()
    perCall.push(Number(process.hrtime.bigint() - start) / batch)
  }
  return summarize(perCall)
}

/**
 * Times several functions side by side: each sample runs one batch of every function, in an order that rotates, so a
 * burst of load from other processes falls on all of them alike instead of on whichever ran at that moment.
 */
export function measureSyncInterleaved(
  fns: readonly (() => unknown)[],
  options: { batch?: number; samples?: number; warmup?: number } = {},
): Measurement[] {
  const batch = options.batch ?? 1000
  const sampleCount = options.samples ?? 50
  for (const fn of fns) for (let index = 0; index < (options.warmup ?? batch * 5); index++) fn()
  const perCall: number[][] = fns.map(() => [])
  for (let sample = 0; sample < sampleCount; sample++) {
    for (let offset = 0; offset < fns.length; offset++) {
      const which = (sample + offset) % fns.length
      const fn = fns[which]!
      const start = process.hrtime.bigint()
      for (let index = 0; index < batch; index++) fn()
      perCall[which]!.push(Number(process.hrtime.bigint() - start) / batch)
    }
  }
  return perCall.map(summarize)
}

export async function measureAsync(
  fn: () => Promise<unknown>,
  options: { batch?: number; samples?: number; warmup?: number } = {},
): Promise<Measurement> {
  const batch = options.batch ?? 200
  const sampleCount = options.samples ?? 30
  for (let index = 0; index < (options.warmup ?? batch * 3); index++) await fn()
  const perCall: number[] = []
  for (let sample = 0; sample < sampleCount; sample++) {
    const start = process.hrtime.bigint()
    for (let index = 0; index < batch; index++) await fn()
    perCall.push(Number(process.hrtime.bigint() - start) / batch)
  }
  return summarize(perCall)
}

export function summarize(values: readonly number[]): Measurement {
  const sorted = [...values].sort((left, right) => left - right)
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN
  return { medianNs: at(0.5), p90Ns: at(0.9), samples: sorted.length }
}

export function markdownTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n')
}

export function formatNs(ns: number): string {
  if (ns >= 1_000_000) return `${(ns / 1_000_000).toFixed(2)} ms`
  if (ns >= 1_000) return `${(ns / 1_000).toFixed(2)} µs`
  return `${Math.round(ns)} ns`
}
