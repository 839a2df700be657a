import { el } from './dom.js'
import { jsonView } from './json-view.js'

// What a tool's presentCall/presentResult describe (`{ card, title?, props? }`), drawn as small components. The
// kinds below have their own look; any other kind shows its props as a list.
const components = {
  file: (props) => [
    fact('path', props.path),
    typeof props.preview === 'string' || typeof props.content === 'string'
      ? el('pre', {}, String(props.preview ?? props.content))
      : undefined,
  ],
  command: (props) => [
    el('pre', {}, `$ ${String(props.command ?? '')}`),
    props.exitCode === undefined ? undefined : fact('exit code', props.exitCode),
    typeof props.output === 'string' ? el('pre', {}, props.output) : undefined,
  ],
  diff: (props) => [
    el(
      'pre',
      { class: 'diff' },
      String(props.diff ?? '')
        .split('\n')
        .map((line) =>
          el('span', { class: line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : '' }, `${line}\n`),
        ),
    ),
  ],
  table: (props) => {
    const rows = Array.isArray(props.rows) ? props.rows.filter((row) => typeof row === 'object' && row !== null) : []
    const columns = [...new Set(rows.slice(0, 50).flatMap((row) => Object.keys(row)))].slice(0, 12)
    return [
      el(
        'table',
        {},
        el(
          'tr',
          {},
          columns.map((column) => el('th', {}, column)),
        ),
        rows.slice(0, 50).map((row) =>
          el(
            'tr',
            {},
            columns.map((column) => el('td', {}, scalar(row[column]))),
          ),
        ),
      ),
    ]
  },
}

/** One card: its kind, title and body. */
export function cardView(intent, label) {
  if (typeof intent !== 'object' || intent === null) return undefined
  const kind = typeof intent.card === 'string' ? intent.card : 'card'
  const props = typeof intent.props === 'object' && intent.props !== null ? intent.props : {}
  const component = Object.hasOwn(components, kind) ? components[kind] : generic
  return el(
    'div',
    { class: 'card', 'data-card': kind },
    el('div', {}, el('span', { class: 'card-kind' }, kind), el('span', { class: 'card-title' }, intent.title ?? label)),
    component(props),
  )
}

function generic(props) {
  return Object.keys(props).length === 0 ? [] : [jsonView(props)]
}

function fact(name, value) {
  return el('div', {}, el('strong', {}, `${name}: `), scalar(value))
}

function scalar(value) {
  if (value === undefined) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}
