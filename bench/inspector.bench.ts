/**
 * The inspector's first paint for a 10,000-call session log in headless Debian chromium: navigation start to the
 * first contentful paint, and to the page's own mark once the timeline rows are drawn (the session's summaries
 * fetched, parsed and laid out). Five fresh pages; the goal is judged on the median of the rows-drawn mark.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startInspector } from '../src/cli/inspect/inspect-server.js'
import { loadTokenCounter } from '../src/cli/token-count.js'
import { launchChromium } from '../test/support/browser.js'
import { markdownTable } from './measure.js'

const CALLS = 10_000
const PROGRAM_EVERY = 50
const SUB_CALLS = 9

/** 10,000 calls: native ones, and every 50th a program whose 9 sub-calls count among the 10,000. */
function sessionLog(): string {
  const lines: string[] = []
  let at = 1_700_000_000_000
  let written = 0
  for (let index = 0; written < CALLS; index++) {
    const id = `call-${index}`
    const program = index % PROGRAM_EVERY === 0
    const name = program ? 'run_code' : index % 7 === 0 ? 'grep' : 'read_file'
    lines.push(JSON.stringify({ type: 'tool.call.started', id, name, arguments: { path: `src/file-${index}.ts` }, at }))
    written++
    for (let sub = 1; program && sub <= SUB_CALLS && written < CALLS; sub++, written++) {
      const subId = `${id}:ptc:${sub}`
      lines.push(
        JSON.stringify({ type: 'tool.call.started', id: subId, name: 'read_file', arguments: {}, parentId: id, at }),
      )
      lines.push(
        JSON.stringify({
          type: 'tool.call.settled',
          id: subId,
          name: 'read_file',
          ok: true,
          content: [{ type: 'text', text: `contents of file ${sub} `.repeat(20) }],
          durationMs: 1,
          parentId: id,
          at: at + 1,
        }),
      )
    }
    const failed = index % 13 === 0
    lines.push(
      JSON.stringify({
        type: 'tool.call.settled',
        id,
        name,
        ok: !failed,
        content: [{ type: 'text', text: failed ? 'Error: no such file' : 'line one\nline two' }],
        ...(failed ? { error: { code: 'TOOL_ERROR', message: 'no such file' } } : {}),
        durationMs: 3 + (index % 40),
        at: at + 3,
      }),
    )
    at += 5
  }
  return `${lines.join('\n')}\n`
}

const directory = mkdtempSync(join(tmpdir(), 'qilin-inspect-bench-'))
const path = join(directory, 'session.jsonl')
writeFileSync(path, sessionLog())
const serverStart = performance.now()
const inspector = await startInspector({ path, port: 0, live: false, countTokens: await loadTokenCounter() })
const serverReady = performance.now() - serverStart
const browser = await launchChromium()
const rows: (string | number)[][] = []
const drawn: number[] = []
try {
  for (let load = 1; load <= 5; load++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.goto(inspector.url)
    await page.waitForSelector('body[data-ready="true"]')
    // A string, so the DOM types stay out of this Node program.
    const timing = (await page.evaluate(`({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      rows: performance.getEntriesByName('inspector-rows-drawn')[0]?.startTime ?? Number.NaN,
      calls: Number(document.getElementById('counts').textContent.match(/of ([\\d,]+) calls/)[1].replace(/,/g, '')),
      inDom: document.querySelectorAll('#rows .row:not([hidden])').length,
    })`)) as { paint: number; rows: number; calls: number; inDom: number }
    drawn.push(timing.rows)
    rows.push([load, timing.calls, `${timing.paint.toFixed(0)} ms`, `${timing.rows.toFixed(0)} ms`, timing.inDom])
    await page.close()
  }
} finally {
  await browser.close()
  await inspector.close()
  rmSync(directory, { recursive: true, force: true })
}
const median = [...drawn].sort((left, right) => left - right)[Math.floor(drawn.length / 2)]!
console.log(`### Inspector first paint, ${CALLS.toLocaleString('en')}-call log, headless chromium\n`)
console.log(`Server read and summarised the log in ${serverReady.toFixed(0)} ms before listening.\n`)
console.log(markdownTable(['load', 'calls', 'first contentful paint', 'timeline rows drawn', 'rows in the DOM'], rows))
console.log(`\nGoal: rows drawn under 1 s (${median < 1000 ? 'met' : 'NOT met'}: median ${median.toFixed(0)} ms).`)
