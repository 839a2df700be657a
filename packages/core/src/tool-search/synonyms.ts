import { stem } from './search-terms.js'

/**
 * Words users say for the same act or thing; a query term also finds its group's other words, at a lower weight.
 * Kept small and general: it describes how people talk about tools, not any one server.
 */
const groups: readonly string[] = [
  'create make add new start open',
  'sum add plus total',
  'slow long',
  'job task operation',
  'kick start trigger launch',
  'delete remove drop erase destroy trash discard',
  'search find look query lookup locate',
  'list show enumerate browse display',
  'read view open see fetch retrieve content',
  'write save store put',
  'update edit change modify patch',
  'move rename relocate',
  'file document',
  'folder directory dir',
  'issue bug ticket',
  'pull pr merge request',
  'repo repository project',
  'page tab browser website site url web',
  'navigate go visit load',
  'click press tap',
  'type enter fill input',
  'screenshot snapshot capture picture image',
  'comment reply',
  'user person people member account everyone',
  'entity node',
  'relation link connection edge',
  'observation fact note',
  'database db table',
  'wait sleep pause delay',
  'close shut',
  'upload attach',
  'think reason thought',
  'info information detail metadata',
  'size big large length',
  'back previous',
  'console log',
]

const related = new Map<string, Set<string>>()
for (const group of groups) {
  const stems = group.split(' ').map(stem)
  for (const word of stems) {
    let set = related.get(word)
    if (set === undefined) {
      set = new Set()
      related.set(word, set)
    }
    for (const other of stems) if (other !== word) set.add(other)
  }
}

/** The other words of each term's groups, each once, in first-seen order. */
export function expandQuery(terms: readonly string[]): string[] {
  const found = new Set<string>()
  for (const term of terms) for (const other of related.get(term) ?? []) found.add(other)
  return [...found]
}
