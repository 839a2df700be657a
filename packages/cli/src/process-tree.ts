import { readdirSync, readFileSync } from 'node:fs'

/** One process as `/proc/<pid>/stat` describes it. */
export interface ProcessEntry {
  readonly pid: number
  readonly parentPid: number
  readonly groupId: number
}

/** Every process on the machine from `/proc`; empty where there is no `/proc` (macOS), or it cannot be read. */
export function listProcesses(): ProcessEntry[] {
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  const entries: ProcessEntry[] = []
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    const entry = readStat(name)
    if (entry !== undefined) entries.push(entry)
  }
  return entries
}

/** The children of `rootPid`, their children and so on, parents before children. */
export function descendantsOf(rootPid: number, processes: readonly ProcessEntry[] = listProcesses()): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>()
  for (const entry of processes) {
    const siblings = children.get(entry.parentPid)
    if (siblings === undefined) children.set(entry.parentPid, [entry])
    else siblings.push(entry)
  }
  const found: ProcessEntry[] = []
  const queue = [rootPid]
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      found.push(child)
      queue.push(child.pid)
    }
  }
  return found
}

function readStat(pid: string): ProcessEntry | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined // it exited while we looked
  }
  // The command name sits in parentheses and may itself hold spaces and parentheses: read after the last one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const parentPid = Number(fields[1])
  const groupId = Number(fields[2])
  if (!Number.isInteger(parentPid) || !Number.isInteger(groupId)) return undefined
  return { pid: Number(pid), parentPid, groupId }
}
