import { cardView } from './cards.js'
import { clear, el, formatMs } from './dom.js'
import { jsonView, textView } from './json-view.js'

/** Fills the detail panel with one call as the server holds it. */
export function showDetail(panel, call) {
  clear(panel)
  panel.dataset.index = String(call.index)
  panel.append(el('h2', {}, call.name), facts(call))
  if (call.state === 'failed') {
    panel.append(
      section('Error'),
      el('div', { class: 'error' }, el('span', { class: 'code' }, call.code ?? 'UNKNOWN'), ` ${call.message ?? ''}`),
    )
  }
  if (call.approval !== undefined) panel.append(section('Approval'), approvalView(call.approval))
  if (call.keptOut !== undefined) {
    panel.append(
      section('Kept out of the conversation'),
      dl([
        ['sub-calls', String(call.children.length)],
        ['bytes', call.keptOut.bytes.toLocaleString('en')],
        ['o200k tokens', call.keptOut.tokens.toLocaleString('en')],
      ]),
    )
  }
  const cards = [cardView(call.cards?.call, 'call'), cardView(call.cards?.result, 'result')].filter(Boolean)
  if (cards.length > 0) panel.append(section('Cards'), ...cards)
  if (call.arguments !== undefined) panel.append(section('Arguments'), jsonView(call.arguments))
  if (Array.isArray(call.content)) panel.append(section('Result'), ...call.content.map(partView))
  if (call.metadata !== undefined) panel.append(section('Metadata'), jsonView(call.metadata))
}

function facts(call) {
  return dl([
    ['id', call.id],
    ['state', call.state],
    ['agent', call.agentId],
    ['started', typeof call.startedAt === 'number' ? new Date(call.startedAt).toISOString() : undefined],
    ['duration', formatMs(call.durationMs)],
    ['log line', String(call.line)],
  ])
}

function approvalView(approval) {
  return dl([
    ['verdict', el('span', { class: `approval-${approval.verdict}` }, approval.verdict)],
    ['decided by', approval.decidedBy ?? 'the approver (unnamed)'],
    ['waited', formatMs(approval.waitedMs)],
    ['asked because', approval.reasons.join('; ')],
    ['reason', approval.reason],
  ])
}

function partView(part) {
  if (typeof part !== 'object' || part === null) return jsonView(part)
  if (part.type === 'text' && typeof part.text === 'string') return textView(part.text)
  if (part.type === 'image') return el('p', { class: 'hint' }, `image (${String(part.mimeType ?? 'unknown type')})`)
  return jsonView(part)
}

function section(title) {
  return el('h3', {}, title)
}

function dl(entries) {
  return el(
    'dl',
    { class: 'facts' },
    entries
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]),
  )
}
