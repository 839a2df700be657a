import { describe, expect, it } from 'vitest'
import { type RunnerLine, type RunnerLineLimits, RunnerLines } from './runner-lines.js'

function reader(limits: RunnerLineLimits = { maxLineBytes: 1_000, maxArgumentBytes: 100 }) {
  const lines = new RunnerLines(() => limits)
  const seen: RunnerLine[] = []
  const read = (...chunks: string[]) => {
    for (const chunk of chunks) seen.push(...lines.read(chunk))
  }
  return { seen, read }
}

const call = (args: string, id = 7, name = 'echo') =>
  `{"t":"call","id":${id},"name":${JSON.stringify(name)},"args":${args}}`

describe('RunnerLines', () => {
  it('reads messages split anywhere across chunks, and skips empty lines and non-objects', () => {
    const { seen, read } = reader()
    read('{"t":"out","te', 'xt":"a"}\n\n[1]\n{"t":', '"done"}\n{"t":"x"')
    expect(seen).toEqual([
      { kind: 'message', message: { t: 'out', text: 'a' } },
      { kind: 'message', message: { t: 'done' } },
    ])
  })

  it('reads a call whose arguments are exactly at the limit', () => {
    const { seen, read } = reader()
    const args = `{"text":"${'x'.repeat(89)}"}`
    expect(args).toHaveLength(100)
    read(`${call(args)}\n`)
    expect(seen).toEqual([
      { kind: 'message', message: { t: 'call', id: 7, name: 'echo', args: { text: 'x'.repeat(89) } } },
    ])
  })

  it('drops a call one unit over the limit unread, names its id and tool, and reads what follows', () => {
    const { seen, read } = reader()
    const line = call(`{"text":"${'x'.repeat(90)}"}`, 12, 'a "quoted" é tool')
    read(`${line.slice(0, 30)}`, `${line.slice(30)}\n{"t":"done"}\n`)
    expect(seen).toEqual([
      { kind: 'oversized-call', id: 12, name: 'a "quoted" é tool' },
      { kind: 'message', message: { t: 'done' } },
    ])
  })

  it('never keeps an oversized call: 100 MB of it in 64 KiB chunks passes a 1000-unit line cap', () => {
    const { seen, read } = reader()
    read(call('{"text":"').slice(0, -1))
    const chunk = 'x'.repeat(64 * 1024)
    for (let sent = 0; sent < 100 * 1024 * 1024; sent += chunk.length) read(chunk)
    read('"}}\n{"t":"done"}\n')
    expect(seen).toEqual([
      { kind: 'oversized-call', id: 7, name: 'echo' },
      { kind: 'message', message: { t: 'done' } },
    ])
  })

  it('ends the channel at a line over the line cap that is not a call, or before a program runs', () => {
    const flooded = reader()
    flooded.read('x'.repeat(600), 'x'.repeat(600), '\n{"t":"done"}\n')
    expect(flooded.seen).toEqual([{ kind: 'violation', problem: 'the runner sent a message over 1000 bytes' }])
    const early = reader({ maxLineBytes: 1_000 })
    early.read(`${call(`"${'x'.repeat(2_000)}"`)}\n`)
    expect(early.seen).toEqual([{ kind: 'violation', problem: 'the runner sent a message over 1000 bytes' }])
  })

  it('ends the channel at a line that is not JSON, complete in one chunk or not', () => {
    const { seen, read } = reader()
    read('{"t":"out"}\n{nope}\n{"t":"done"}\n')
    expect(seen).toEqual([
      { kind: 'message', message: { t: 'out' } },
      { kind: 'violation', problem: 'the runner sent a line that is not JSON' },
    ])
  })

  it('does not take a look-alike head for a call: another key order is read, and refused at the line cap', () => {
    const { seen, read } = reader()
    read(`{"t":"call","name":"echo","id":7,"args":"${'x'.repeat(2_000)}"}\n`)
    expect(seen).toEqual([{ kind: 'violation', problem: 'the runner sent a message over 1000 bytes' }])
  })

  it('ends the channel, without throwing, at an oversized call whose name is not a JSON string', () => {
    for (const name of ['\\q', '\\u12', '\u0001']) {
      const { seen, read } = reader()
      read(`{"t":"call","id":1,"name":"${name}","args":"${'x'.repeat(200)}"}\n{"t":"done"}\n`)
      expect(seen).toEqual([{ kind: 'violation', problem: 'the runner sent a line that is not JSON' }])
    }
  })
})
