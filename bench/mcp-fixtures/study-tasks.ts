/**
 * The three multi-step tasks of the MCP token study. Each has the native call sequence a model would make (later
 * turns depend on earlier results), a `run_code` program for the same job, and a check against ground truth.
 */
import type { JsonObject } from 'qilin-tools/internal/json-schema/json-value.js'
import type { ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import type { ErrorTallyTruth, LargestFilesTruth, RosterTruth } from './task-data.js'

/** Runs one model turn of native calls (in parallel, as one assistant message) and returns the results. */
export type NativeTurn = (calls: readonly { name: string; arguments: JsonObject }[]) => Promise<readonly ToolResult[]>

export interface StudyTask {
  readonly name: string
  readonly prompt: string
  /** Which registered tools the task is given. */
  readonly toolPrefixes: readonly string[]
  /** Plays the native loop and returns the answer read off the appended results. */
  native(turn: NativeTurn): Promise<string>
  readonly program: string
  /** Whether an answer (native or the program's printed output) matches the ground truth. */
  check(answer: string): boolean
}

const valueOfResult = (result: ToolResult | undefined) => (result?.ok === true ? result.value : {})
const structured = (result: ToolResult | undefined) => valueOfResult(result) as { content?: string }
const textOf = (result: ToolResult | undefined) => structured(result).content ?? ''

const units = ['B', 'KB', 'MB', 'GB']
/** `[FILE] name   12.34 KB` lines of list_directory_with_sizes, as bytes. */
export function parseSizes(listing: string): { name: string; bytes: number }[] {
  return listing.split('\n').flatMap((line) => {
    const match = /^\[FILE\] (\S+)\s+([\d.]+) (\w+)$/.exec(line.trim())
    return match ? [{ name: match[1]!, bytes: Number(match[2]) * 1024 ** units.indexOf(match[3]!) }] : []
  })
}

export function largestFilesTask(root: string, truth: LargestFilesTruth): StudyTask {
  const expected = truth.largest.map((file) => `${file.path} ${file.firstLine}`).join('\n')
  return {
    name: '5 largest of 300 files + first lines',
    prompt: `Under ${root} find the 5 largest files and print each one's path (relative) and first line.`,
    toolPrefixes: ['fs__'],
    async native(turn) {
      const [top] = await turn([{ name: 'fs__list_directory', arguments: { path: root } }])
      const folders = textOf(top)
        .split('\n')
        .flatMap((line) => (line.startsWith('[DIR] ') ? [line.slice(6).trim()] : []))
      const listings = await turn(
        folders.map((folder) => ({
          name: 'fs__list_directory_with_sizes',
          arguments: { path: `${root}/${folder}`, sortBy: 'size' },
        })),
      )
      const files = listings
        .flatMap((listing, index) => parseSizes(textOf(listing)).map((file) => ({ ...file, folder: folders[index] })))
        .sort((left, right) => right.bytes - left.bytes)
        .slice(0, 5)
      const heads = await turn(
        files.map((file) => ({
          name: 'fs__read_text_file',
          arguments: { path: `${root}/${file.folder}/${file.name}`, head: 1 },
        })),
      )
      return files.map((file, index) => `${file.folder}/${file.name} ${textOf(heads[index])}`).join('\n')
    },
    program: `const root = ${JSON.stringify(root)}
const units = ['B', 'KB', 'MB', 'GB']
const top = await tools.fs__list_directory({ path: root })
const folders = top.content.split('\\n').filter((line) => line.startsWith('[DIR] ')).map((line) => line.slice(6).trim())
const listings = await Promise.all(folders.map((folder) => tools.fs__list_directory_with_sizes({ path: root + '/' + folder, sortBy: 'size' })))
const files = listings.flatMap((listing, index) => listing.content.split('\\n').flatMap((line) => {
  const match = /^\\[FILE\\] (\\S+)\\s+([\\d.]+) (\\w+)$/.exec(line.trim())
  return match ? [{ path: folders[index] + '/' + match[1], bytes: Number(match[2]) * 1024 ** units.indexOf(match[3]) }] : []
})).sort((a, b) => b.bytes - a.bytes).slice(0, 5)
const heads = await Promise.all(files.map((file) => tools.fs__read_text_file({ path: root + '/' + file.path, head: 1 })))
files.forEach((file, index) => console.log(file.path, heads[index].content))`,
    check: (answer) => answer.trim() === expected,
  }
}

/** `E123: 45` lines, sorted by code. */
function formatTally(tally: Readonly<Record<string, number>>): string {
  return Object.keys(tally)
    .sort()
    .map((code) => `${code}: ${tally[code]}`)
    .join('\n')
}

export function errorTallyTask(root: string, truth: ErrorTallyTruth): StudyTask {
  return {
    name: 'tally error codes across 48 logs',
    prompt: `Count the ERROR lines per error code across every log in ${root}; print "CODE: count" sorted by code.`,
    toolPrefixes: ['fs__'],
    async native(turn) {
      const [listing] = await turn([{ name: 'fs__list_directory', arguments: { path: root } }])
      const paths = textOf(listing)
        .split('\n')
        .flatMap((line) => (line.startsWith('[FILE] ') ? [`${root}/${line.slice(7).trim()}`] : []))
      const [contents] = await turn([{ name: 'fs__read_multiple_files', arguments: { paths } }])
      const tally: Record<string, number> = {}
      for (const match of textOf(contents).matchAll(/ ERROR (E\d+) /g)) tally[match[1]!] = (tally[match[1]!] ?? 0) + 1
      return formatTally(tally)
    },
    program: `const root = ${JSON.stringify(root)}
const listing = await tools.fs__list_directory({ path: root })
const paths = listing.content.split('\\n').filter((line) => line.startsWith('[FILE] ')).map((line) => root + '/' + line.slice(7).trim())
const files = await Promise.all(paths.map((path) => tools.fs__read_text_file({ path })))
const tally = {}
for (const file of files) for (const match of file.content.matchAll(/ ERROR (E\\d+) /g)) tally[match[1]] = (tally[match[1]] ?? 0) + 1
for (const code of Object.keys(tally).sort()) console.log(code + ': ' + tally[code])`,
    check: (answer) => answer.trim() === formatTally(truth.tally),
  }
}

export function rosterGraphTask(csvPath: string, truth: RosterTruth): StudyTask {
  const expected = `${truth.manager}: ${truth.peers.join(', ')}`
  const rowsOf = (csv: string) =>
    csv
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','))
  const relationsOf = (result: ToolResult | undefined) =>
    (valueOfResult(result) as { relations?: { from: string; to: string; relationType: string }[] }).relations ?? []
  return {
    name: 'knowledge graph from a CSV roster + two-hop question',
    prompt: `Load ${csvPath} into the knowledge graph (people, with team and city as observations, and reports_to relations), then answer from the graph: who else reports to the manager of ${truth.person}? Print "Manager: name, name, …" sorted.`,
    toolPrefixes: ['fs__', 'memory__'],
    async native(turn) {
      const [roster] = await turn([{ name: 'fs__read_text_file', arguments: { path: csvPath } }])
      const rows = rowsOf(textOf(roster))
      await turn([
        {
          name: 'memory__create_entities',
          arguments: {
            entities: rows.map(([name, team, , city]) => ({
              name: name!,
              entityType: 'person',
              observations: [`team: ${team}`, `city: ${city}`],
            })),
          },
        },
      ])
      await turn([
        {
          name: 'memory__create_relations',
          arguments: {
            relations: rows
              .filter((row) => row[2])
              .map(([name, , manager]) => ({ from: name!, to: manager!, relationType: 'reports_to' })),
          },
        },
      ])
      const [first] = await turn([{ name: 'memory__open_nodes', arguments: { names: [truth.person] } }])
      const manager = relationsOf(first).find((relation) => relation.from === truth.person)?.to ?? ''
      const [second] = await turn([{ name: 'memory__open_nodes', arguments: { names: [manager] } }])
      const peers = relationsOf(second)
        .filter((relation) => relation.to === manager && relation.from !== truth.person)
        .map((relation) => relation.from)
        .sort()
      return `${manager}: ${peers.join(', ')}`
    },
    program: `const person = ${JSON.stringify(truth.person)}
const csv = await tools.fs__read_text_file({ path: ${JSON.stringify(csvPath)} })
const rows = csv.content.trim().split('\\n').slice(1).map((line) => line.split(','))
await tools.memory__create_entities({ entities: rows.map(([name, team, , city]) => ({ name, entityType: 'person', observations: ['team: ' + team, 'city: ' + city] })) })
await tools.memory__create_relations({ relations: rows.filter((row) => row[2]).map(([name, , manager]) => ({ from: name, to: manager, relationType: 'reports_to' })) })
const first = await tools.memory__open_nodes({ names: [person] })
const manager = first.relations.find((relation) => relation.from === person).to
const second = await tools.memory__open_nodes({ names: [manager] })
const peers = second.relations.filter((relation) => relation.to === manager && relation.from !== person).map((relation) => relation.from).sort()
console.log(manager + ': ' + peers.join(', '))`,
    check: (answer) => answer.trim() === expected,
  }
}

/** A control: one small lookup, where code mode has nothing to keep out of the context. */
export function singleLookupTask(file: string, expectedFirstLine: string): StudyTask {
  return {
    name: 'control: first line of one file',
    prompt: `Print the first line of ${file}.`,
    toolPrefixes: ['fs__'],
    async native(turn) {
      const [head] = await turn([{ name: 'fs__read_text_file', arguments: { path: file, head: 1 } }])
      return textOf(head)
    },
    program: `console.log((await tools.fs__read_text_file({ path: ${JSON.stringify(file)}, head: 1 })).content)`,
    check: (answer) => answer.trim() === expectedFirstLine,
  }
}
