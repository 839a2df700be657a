import type { ContentPart } from 'qilin-tools/internal/definition/content.js'
import type { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import type { ResultEvent } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import { renderContent } from './render-content.js'

export interface SubCallRecord {
  readonly id: string
  readonly name: string
  readonly ok: boolean
  /** The failure code; undefined on success. */
  readonly code: ToolErrorCode | undefined
  readonly durationMs: number
  /** What the model would have read had it made this call itself. */
  readonly content: readonly ContentPart[]
}

/** Collects the settled sub-calls of one `run_code` call, and tells a listener as each one settles. */
export function trackSubCalls(parentId: string, onSettled: (records: readonly SubCallRecord[]) => void) {
  const records: SubCallRecord[] = []
  return {
    records: records as readonly SubCallRecord[],
    observe({ result, parentId: parent }: ResultEvent) {
      if (parent !== parentId) return
      records.push({
        id: result.id,
        name: result.name,
        ok: result.ok,
        code: result.ok ? undefined : result.error.code,
        durationMs: result.durationMs,
        content: result.content,
      })
      onSettled(records)
    },
  }
}

/** The live status line: how many sub-calls settled, how many failed, and the latest. */
export function progressLine(records: readonly SubCallRecord[]): string {
  const last = records.at(-1)
  if (last === undefined) return ''
  const failed = records.filter((record) => !record.ok).length
  const outcome = last.ok ? 'ok' : (last.code ?? 'failed')
  return `run_code: ${records.length} call${records.length === 1 ? '' : 's'} settled${failed === 0 ? '' : `, ${failed} failed`} · ${last.name} ${outcome} ${Math.round(last.durationMs)} ms`
}

/** The text a sub-call result would have put into the conversation. */
export function subCallText(record: SubCallRecord): string {
  return renderContent(record.content)
}
