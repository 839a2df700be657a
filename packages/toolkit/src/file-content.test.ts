import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isToolError } from 'qilin-tools/internal/errors/tool-error.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'
import { readWithinLimit, replaceContent } from './file-content.js'
import { type OpenedFile, openRegularFile } from './open-regular-file.js'
import { openWorkspace } from './workspace.js'

const signal = new AbortController().signal
let temp: TempWorkspace
let file: OpenedFile | undefined
beforeEach(() => {
  temp = createTempWorkspace({ 'ten.txt': '0123456789' })
})
afterEach(async () => {
  await file?.handle.close()
  file = undefined
  temp.dispose()
})

const open = async (access: 'read' | 'update' = 'read') => {
  file = await openRegularFile(openWorkspace(temp.root), join(temp.root, 'ten.txt'), 'ten.txt', access)
  return file
}

describe('readWithinLimit', () => {
  it('reads a file of exactly the limit and refuses one byte more from fstat alone', async () => {
    expect((await readWithinLimit(await open(), 'ten.txt', { maxBytes: 10, advice: '' }, signal)).toString()).toBe(
      '0123456789',
    )
    await expect(
      readWithinLimit(await open(), 'ten.txt', { maxBytes: 9, advice: '; try less' }, signal),
    ).rejects.toThrow('"ten.txt" is 10 bytes, over the 9 byte limit; try less')
  })

  it('reads what a file grew by after fstat, and stops one byte past the limit when it grows too far', async () => {
    const opened = await open()
    appendFileSync(join(temp.root, 'ten.txt'), 'abcdefghij'.repeat(10))
    expect((await readWithinLimit(opened, 'ten.txt', { maxBytes: 200, advice: '' }, signal)).length).toBe(110)
    const error = await readWithinLimit(opened, 'ten.txt', { maxBytes: 50, advice: '' }, signal).catch(
      (caught) => caught,
    )
    expect(isToolError(error) && error.message).toBe('"ten.txt" grew past the 50 byte limit while it was being read')
  })
})

describe('replaceContent', () => {
  it('writes from the start and cuts the file to the new length', async () => {
    await replaceContent(await open('update'), Buffer.from('abc'), signal)
    expect(readFileSync(join(temp.root, 'ten.txt'), 'utf8')).toBe('abc')
    writeFileSync(join(temp.root, 'ten.txt'), 'x')
    await replaceContent(await open('update'), Buffer.from('longer than before'), signal)
    expect(readFileSync(join(temp.root, 'ten.txt'), 'utf8')).toBe('longer than before')
  })
})
