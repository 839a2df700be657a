// The one way the page makes elements: text always goes in as a text node, never as markup, so nothing a log holds
// can become HTML.

/** An element with attributes (`class`, `data-*`, properties starting with `on`) and children (strings become text). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value)
    else if (name === 'class') node.className = value
    else if (name === 'style') throw new Error('el: the CSP refuses style attributes; set node.style instead')
    else node.setAttribute(name, value === true ? '' : String(value))
  }
  append(node, children)
  return node
}

export function append(node, children) {
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === undefined || child === null || child === false) continue
    node.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child)
  }
  return node
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove()
  return node
}

export function formatMs(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return ''
  if (ms < 1) return `${ms.toFixed(2)} ms`
  if (ms < 1000) return `${Math.round(ms)} ms`
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}
