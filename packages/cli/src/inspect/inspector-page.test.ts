import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { createJsonlSessionLog } from 'qilin-tools/internal/session-log/jsonl-session-log.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../../test/support/browser.js'
import { hasSystemPart } from '../../../../test/support/system-requirement.js'
import { loadTokenCounter } from '../token-count.js'
import { fixtureRuntime, fixtureTools, HOSTILE_MARKUP, recordSession } from './__fixtures__/record-session.js'
import { type Inspector, startInspector } from './inspect-server.js'
import { runtimeCards } from './runtime-cards.js'

/** Kept after the run (gitignored) so a person can look at what the page drew. */
const ARTIFACTS = join(import.meta.dirname, '..', '..', '..', '..', 'test', '__artifacts__')

const available = hasSystemPart('chromium', 'the inspector page in a real browser')
let directory: string
let browser: Browser
let inspector: Inspector
const inspectors: Inspector[] = []

beforeAll(async () => {
  if (!available) return
  directory = mkdtempSync(join(tmpdir(), 'qilin-inspect-'))
  const path = join(directory, 'session.jsonl')
  await recordSession(path)
  appendFileSync(
    path,
    [
      '{"type":"tool.call.settled","id":"torn',
      JSON.stringify({ type: 'tool.call.started', id: HOSTILE_MARKUP, name: HOSTILE_MARKUP, arguments: {}, at: 1 }),
      `{"type":"tool.call.started","id":"huge","name":"echo","arguments":{"text":"${'x'.repeat(2 * 1024 * 1024)}"}}`,
      '',
    ].join('\n'),
  )
  const countTokens = await loadTokenCounter()
  inspector = await startInspector({ path, port: 0, live: false, countTokens, present: runtimeCards(fixtureRuntime()) })
  inspectors.push(inspector)
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all(inspectors.map((running) => running.close()))
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true })
})

async function open(url = inspector.url): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 800 } })
  await page.goto(url)
  await page.waitForSelector('body[data-ready="true"]')
  return page
}

const rowNames = (page: Page) =>
  page.$$eval('#rows .row:not([hidden])', (rows) =>
    rows.sort((left, right) => parseFloat(left.style.top) - parseFloat(right.style.top)).map((row) => row.dataset.name),
  )
const rowOf = (page: Page, id: string) =>
  page.locator(`#rows .row:not([hidden])`, { has: page.locator(`[title="${id}"]`) })

describe.skipIf(!available)('the inspector page in chromium', () => {
  it('lists the top-level calls, shows malformed lines as such, and never runs markup from the log', async () => {
    const page = await open()
    expect(await rowNames(page)).toEqual([
      'add',
      'read_note',
      'echo',
      'delete_file',
      'broken',
      'nope',
      'run_code',
      'run_code',
      'add',
      HOSTILE_MARKUP,
    ])
    expect(await page.textContent('#malformed-summary')).toBe('2 malformed lines (shown, not read)')
    const malformed = await page.$$eval('#malformed-list li', (items) => items.map((item) => item.textContent))
    expect(malformed[0]).toMatch(/^line 29: not JSON/)
    expect(malformed[1]).toMatch(/^line 31: line of 2097\d+ bytes is longer than 1048576/)
    await rowOf(page, 'call-3').click()
    await page.waitForSelector('#detail[data-index="2"]')
    expect(await page.textContent('#detail')).toContain(HOSTILE_MARKUP)
    await page.locator('#rows .row', { hasText: '<img' }).first().click()
    await page.waitForTimeout(200)
    expect(await page.evaluate('document.body.dataset.pwned')).toBeUndefined()
    expect(await page.$$('#detail img, #detail script, #rows img')).toHaveLength(0)
    await page.close()
  })

  it('expands a program into its sub-calls and shows what it kept out of the conversation', async () => {
    const page = await open()
    await rowOf(page, 'prog-1').locator('[data-toggle]').click()
    const names = await rowNames(page)
    expect(names.slice(6, 10)).toEqual(['run_code', 'add', 'read_note', 'broken'])
    await rowOf(page, 'prog-1').click()
    await page.waitForSelector('#detail[data-index="6"]')
    const detail = (await page.textContent('#detail'))!
    expect(detail).toContain('Kept out of the conversation')
    expect(detail).toMatch(/sub-calls3bytes925o200k tokens\d+/)
    expect(detail).toContain('broken said TOOL_ERROR')
    await page.close()
  })

  it('filters by tool and by failure', async () => {
    const page = await open()
    await page.selectOption('#tool-filter', 'read_note')
    expect(await rowNames(page)).toEqual(['read_note', 'run_code', 'read_note'])
    await page.selectOption('#tool-filter', '')
    await page.check('#failure-filter')
    const failed = await page.$$eval('#rows .row:not([hidden])', (rows) =>
      rows.map((row) => [row.dataset.name, row.dataset.state]),
    )
    expect(failed).toEqual([
      ['delete_file', 'failed'],
      ['broken', 'failed'],
      ['nope', 'failed'],
      ['run_code', 'ok'],
      ['broken', 'failed'],
      ['add', 'failed'],
    ])
    await page.close()
  })

  it('shows errors with their code, approvals with who decided, and the cards of presentCall/presentResult', async () => {
    const page = await open()
    await rowOf(page, 'call-4').click()
    await page.waitForSelector('#detail[data-index="3"]')
    const denied = (await page.textContent('#detail'))!
    expect(denied).toContain('DENIED deletes are off today')
    expect(denied).toMatch(/verdictdenieddecided byreviewer@example\.com/)
    await rowOf(page, 'call-2').click()
    await page.waitForSelector('#detail[data-index="1"]')
    const cards = await page.$$eval('#detail .card', (nodes) =>
      nodes.map((node) => [node.dataset.card, node.textContent]),
    )
    expect(cards).toEqual([
      ['file', 'fileReading notes/today.mdpath: notes/today.md'],
      ['file', expect.stringMatching(/^fileNote readpath: notes\/today\.mdNotes in notes\/today\.md: a long line/)],
    ])
    expect(await page.$$('#detail .fold')).not.toHaveLength(0)
    await rowOf(page, 'prog-1').locator('[data-toggle]').click()
    await rowOf(page, 'prog-1:ptc:3').click()
    await page.waitForSelector('#detail[data-index="9"]')
    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'inspector.png') })
    await page.close()
  })

  it('follows a live log over server-sent events', async () => {
    const path = join(directory, 'live.jsonl')
    writeFileSync(path, '')
    const live = await startInspector({ path, port: 0, live: true, countTokens: await loadTokenCounter(), pollMs: 100 })
    inspectors.push(live)
    const page = await open(live.url)
    expect(await rowNames(page)).toEqual([])
    const sessionLog = createJsonlSessionLog(path)
    const runtime = createToolRuntime({ sessionLog })
    for (const tool of fixtureTools()) runtime.register(tool)
    await runtime.execute({ id: 'live-1', name: 'add', arguments: { a: 1, b: 1 } })
    await page.waitForSelector('#rows .row[data-name="add"][data-state="ok"]')
    await runtime.execute({ id: 'live-2', name: 'broken', arguments: {} })
    await page.waitForSelector('#rows .row[data-name="broken"][data-state="failed"]')
    appendFileSync(path, 'garbage line\n')
    await page.waitForSelector('#malformed:not([hidden])')
    await sessionLog.close()
    expect(await rowNames(page)).toEqual(['add', 'broken'])
    expect(await page.isVisible('#live')).toBe(true)
    await page.close()
  })
})
