import { readFile } from 'node:fs/promises'
import type { SessionLogRecord } from './session-log.js'

/**
 * Reads a JSON Lines session log. A line that does not parse can only be a write torn by a crash (a record is one
 * `write` of one line), so it is skipped: the last line of a killed process, or such a line later closed off by a
 * resumed writer.
 */
export async function readJsonlSessionLog(path: string): Promise<SessionLogRecord[]> {
  return parseJsonlSessionLog(await readFile(path, 'utf8'))
}

/** Reads the records out of JSON Lines text, skipping lines a crash tore. */
export function parseJsonlSessionLog(text: string): SessionLogRecord[] {
  const records: SessionLogRecord[] = []
  for (const line of text.split('\n')) {
    if (line.length === 0) continue
    const record = parseLine(line)
    if (record !== undefined) records.push(record)
  }
  return records
}

const recordTypes = new Set<unknown>([
  'tool.call.started',
  'tool.call.waiting',
  'tool.call.pending',
  'tool.call.approval',
  'tool.call.attempt',
  'tool.call.settled',
] satisfies SessionLogRecord['type'][])

function parseLine(line: string): SessionLogRecord | undefined {
  try {
    const value: unknown = JSON.parse(line)
    const type = (value as { type?: unknown } | null)?.type
    return recordTypes.has(type) ? (value as SessionLogRecord) : undefined
  } catch {
    return undefined
  }
}
