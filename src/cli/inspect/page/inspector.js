import { showDetail } from './detail.js'
import { clear, el, formatMs } from './dom.js'

const ROW_HEIGHT = 26
const OVERSCAN = 10

const state = {
  calls: [],
  expanded: new Set(),
  selected: undefined,
  tool: '',
  failures: false,
  rows: [],
  range: [0, 1],
}
const $ = (id) => document.getElementById(id)
const list = $('rows')
const spacer = $('spacer')
const pool = []

/** A top-level call is listed when it, or one of its sub-calls, passes the filters. */
function matches(call) {
  return (state.tool === '' || call.name === state.tool) && (!state.failures || call.state === 'failed')
}

function rebuild() {
  const filtering = state.tool !== '' || state.failures
  const rows = []
  for (const call of state.calls) {
    if (call === undefined || call.parent !== undefined) continue
    const children = call.children.map((index) => state.calls[index]).filter(Boolean)
    const matching = filtering ? children.filter(matches) : children
    if (!matches(call) && matching.length === 0) continue
    rows.push(call)
    const open = state.expanded.has(call.index) || (filtering && matching.length > 0 && !matches(call))
    if (open) rows.push(...(filtering && !matches(call) ? matching : children))
  }
  state.rows = rows
  state.range = timeRange(state.calls)
  spacer.style.height = `${rows.length * ROW_HEIGHT}px`
  $('counts').textContent =
    `${state.rows.length.toLocaleString('en')} shown of ${state.calls.length.toLocaleString('en')} calls`
  drawAxis()
  draw()
}

/** The span of the settled calls: a running call, or one with a made-up start, cannot stretch the axis. */
function timeRange(calls) {
  let start = Number.POSITIVE_INFINITY
  let end = Number.NEGATIVE_INFINITY
  for (const call of calls) {
    if (typeof call?.startedAt !== 'number' || typeof call.durationMs !== 'number') continue
    start = Math.min(start, call.startedAt)
    end = Math.max(end, call.startedAt + call.durationMs)
  }
  if (!Number.isFinite(start)) return [0, 1]
  return [start, Math.max(end, start + 1)]
}

const clamp = (value) => Math.min(100, Math.max(0, Number.isFinite(value) ? value : 0))

function drawAxis() {
  const axis = clear($('axis'))
  const [start, end] = state.range
  for (let step = 0; step <= 3; step++) {
    const label = el('span', {}, formatMs(((end - start) * step) / 3))
    // The last label ends at the track's end instead of starting there.
    if (step === 3) label.style.right = '0'
    else label.style.left = `${(step * 100) / 3}%`
    axis.append(label)
  }
}

/** Only the rows in view (and a few around them) exist in the DOM; scrolling moves and refills them. */
function draw() {
  const first = Math.max(0, Math.floor(list.scrollTop / ROW_HEIGHT) - OVERSCAN)
  const last = Math.min(state.rows.length, Math.ceil((list.scrollTop + list.clientHeight) / ROW_HEIGHT) + OVERSCAN)
  while (pool.length < last - first) pool.push(list.appendChild(el('div', { class: 'row' })))
  for (let slot = 0; slot < pool.length; slot++) {
    const call = state.rows[first + slot]
    const row = pool[slot]
    if (call === undefined || first + slot >= last) {
      row.hidden = true
      continue
    }
    row.hidden = false
    fillRow(row, call, first + slot)
  }
}

function fillRow(row, call, position) {
  row.style.top = `${position * ROW_HEIGHT}px`
  row.className = `row${call.parent === undefined ? '' : ' child'}${state.selected === call.index ? ' selected' : ''}`
  row.dataset.index = String(call.index)
  row.dataset.name = call.name
  row.dataset.state = call.state
  const program = call.children.length > 0
  const [start, end] = state.range
  const duration = call.durationMs ?? (call.state === 'running' ? Date.now() - (call.startedAt ?? Date.now()) : 0)
  const left = clamp(call.startedAt === undefined ? 0 : ((call.startedAt - start) / (end - start)) * 100)
  const width = Math.min(clamp((duration / (end - start)) * 100), 100 - left)
  const badge = call.state === 'failed' ? call.code : call.state === 'running' ? 'running' : 'ok'
  const approval = call.approval === undefined || call.code === 'DENIED' ? '' : ` · ${call.approval.verdict}`
  // Positions go through the CSSOM: the page's CSP refuses style attributes.
  const bar = el('span', { class: `bar ${call.state}` })
  bar.style.left = `${left}%`
  bar.style.width = `${width}%`
  clear(row).append(
    program
      ? el(
          'button',
          { class: 'toggle', type: 'button', 'data-toggle': call.index },
          state.expanded.has(call.index) ? '▾' : '▸',
        )
      : el('span', { class: 'toggle' }),
    el('span', { class: 'name', title: call.id }, call.name, program ? ` (${call.children.length})` : ''),
    el('span', { class: 'agent' }, call.agentId ?? ''),
    el('span', { class: `badge ${call.state}` }, badge + approval),
    el('span', { class: 'duration' }, formatMs(call.durationMs)),
    el('span', { class: 'track' }, bar),
  )
}

list.addEventListener('scroll', () => requestAnimationFrame(draw), { passive: true })
window.addEventListener('resize', () => requestAnimationFrame(draw))
list.addEventListener('click', (event) => {
  const toggle = event.target.closest('[data-toggle]')
  if (toggle !== null) {
    const index = Number(toggle.dataset.toggle)
    if (state.expanded.has(index)) state.expanded.delete(index)
    else state.expanded.add(index)
    rebuild()
    return
  }
  const row = event.target.closest('.row')
  if (row !== null) select(Number(row.dataset.index))
})

async function select(index) {
  state.selected = index
  draw()
  const response = await fetch(`api/call/${index}`)
  if (!response.ok) return
  showDetail($('detail'), await response.json())
}

function setCalls(summaries) {
  for (const summary of summaries) state.calls[summary.index] = summary
  const names = [...new Set(state.calls.filter(Boolean).map((call) => call.name))].sort()
  const select = $('tool-filter')
  const known = new Set([...select.options].map((option) => option.value))
  for (const name of names) if (!known.has(name)) select.append(el('option', { value: name }, name))
}

function addMalformed(lines, count) {
  if (count === 0 || count === undefined) return
  const list = $('malformed-list')
  for (const line of lines) {
    list.append(
      el(
        'li',
        { value: line.line },
        el('strong', {}, `line ${line.line}: ${line.reason}`),
        ' ',
        el('code', {}, line.preview),
      ),
    )
  }
  $('malformed').hidden = false
  const listed = list.children.length
  const plural = count === 1 ? '' : 's'
  $('malformed-summary').textContent =
    listed < count
      ? `${count.toLocaleString('en')} malformed lines (the first ${listed.toLocaleString('en')} listed; none read)`
      : `${count} malformed line${plural} (shown, not read)`
}

$('tool-filter').addEventListener('change', (event) => {
  state.tool = event.target.value
  rebuild()
})
$('failure-filter').addEventListener('change', (event) => {
  state.failures = event.target.checked
  rebuild()
})

function follow() {
  $('live').hidden = false
  $('follow-label').hidden = false
  const source = new EventSource('api/events')
  source.addEventListener('message', (event) => {
    const update = JSON.parse(event.data)
    if (update.reset) {
      state.calls = []
      clear($('malformed-list'))
    }
    if (update.calls) setCalls(update.calls)
    if (update.malformed) addMalformed(update.malformed, update.malformedCount)
    rebuild()
    if ($('follow').checked) list.scrollTop = list.scrollHeight
    document.body.dataset.updates = String(Number(document.body.dataset.updates ?? 0) + 1)
  })
}

const session = await (await fetch('api/session')).json()
$('file').textContent = session.file
setCalls(session.calls)
addMalformed(session.malformed, session.malformedCount)
rebuild()
document.body.dataset.ready = 'true'
performance.mark('inspector-rows-drawn')
if (session.live) follow()
