import { el } from './dom.js'

/** Strings longer than this show their start and a button for the rest. */
const FOLD_CHARS = 240
/** Objects and arrays with more entries than this start closed. */
const FOLD_ENTRIES = 12

/** Pretty JSON as DOM: indented, coloured, long strings and big containers folded. */
export function jsonView(value) {
  return el('div', { class: 'json' }, render(value, 0))
}

function render(value, depth) {
  if (value === null) return el('span', { class: 'null' }, 'null')
  if (typeof value === 'string') return stringView(value)
  if (typeof value === 'number' || typeof value === 'boolean') return el('span', { class: typeof value }, String(value))
  if (Array.isArray(value))
    return container(
      '[',
      ']',
      value.map((item) => [undefined, item]),
      depth,
    )
  if (typeof value === 'object') return container('{', '}', Object.entries(value), depth)
  return el('span', {}, String(value))
}

function container(open, close, entries, depth) {
  if (entries.length === 0) return document.createTextNode(`${open}${close}`)
  const pad = '  '.repeat(depth + 1)
  const lines = entries.map(([key, item], index) =>
    el(
      'span',
      {},
      pad,
      key === undefined ? '' : el('span', { class: 'key' }, JSON.stringify(key)),
      key === undefined ? '' : ': ',
      render(item, depth + 1),
      index < entries.length - 1 ? ',' : '',
      '\n',
    ),
  )
  const body = el('span', {}, `${open}\n`, lines, '  '.repeat(depth), close)
  if (entries.length <= FOLD_ENTRIES || depth === 0) return body
  const summary = el('summary', {}, `${open} ${entries.length} entries ${close}`)
  return el('details', { class: 'folded' }, summary, body)
}

function stringView(text) {
  const quoted = JSON.stringify(text)
  if (quoted.length <= FOLD_CHARS) return el('span', { class: 'string' }, quoted)
  const head = el('span', { class: 'string' }, `${quoted.slice(0, FOLD_CHARS)}…`)
  const button = el('button', { class: 'fold', type: 'button' }, `show ${quoted.length - FOLD_CHARS} more`)
  const holder = el('span', {}, head, button)
  button.addEventListener('click', () => {
    const open = button.dataset.open === 'true'
    head.textContent = open ? `${quoted.slice(0, FOLD_CHARS)}…` : quoted
    button.textContent = open ? `show ${quoted.length - FOLD_CHARS} more` : 'fold'
    button.dataset.open = String(!open)
  })
  return holder
}

/** A text part as the model read it: pretty JSON when it is JSON, else the text, folded when long. */
export function textView(text) {
  try {
    const parsed = JSON.parse(text)
    if (typeof parsed === 'object' && parsed !== null) return jsonView(parsed)
  } catch {}
  if (text.length <= FOLD_CHARS * 8) return el('pre', {}, text)
  const pre = el('pre', {}, `${text.slice(0, FOLD_CHARS * 8)}…`)
  const button = el('button', { class: 'fold', type: 'button' }, `show ${text.length - FOLD_CHARS * 8} more characters`)
  button.addEventListener('click', () => {
    pre.textContent = text
    button.remove()
  })
  return el('div', {}, pre, button)
}
