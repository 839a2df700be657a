/**
 * Runs `work` while a 5 ms probe timer measures how late the event loop serves it, and returns the worst delay:
 * the time any other work on the host would have waited. Synchronous work shows up as one long gap.
 */
export async function worstEventLoopLag(work: () => unknown): Promise<number> {
  const interval = 5
  let worst = 0
  let last = performance.now()
  const probe = setInterval(() => {
    const now = performance.now()
    worst = Math.max(worst, now - last - interval)
    last = now
  }, interval)
  try {
    await new Promise((resolve) => setTimeout(resolve, interval * 2))
    await work()
    await new Promise((resolve) => setTimeout(resolve, interval * 2))
  } finally {
    clearInterval(probe)
  }
  return worst
}
