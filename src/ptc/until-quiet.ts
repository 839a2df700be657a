/**
 * Resolves once every promise in `pending` has settled, those added while it waits included, or after `graceMs`,
 * whichever comes first. Never rejects.
 */
export async function untilQuiet(pending: ReadonlySet<Promise<unknown>>, graceMs: number): Promise<void> {
  if (pending.size === 0) return
  let graceTimer: ReturnType<typeof setTimeout> | undefined
  const grace = new Promise<void>((resolve) => {
    graceTimer = setTimeout(resolve, graceMs)
  })
  const settled = (async () => {
    while (pending.size > 0) await Promise.allSettled([...pending])
  })()
  await Promise.race([settled, grace])
  clearTimeout(graceTimer)
}
