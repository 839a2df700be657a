import { describe, expect, it } from 'vitest'
import { type ContentPart, contentFallbackText, isMediaPart } from './content.js'

const parts: readonly ContentPart[] = [
  { type: 'text', text: 'plain' },
  { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
  { type: 'audio', data: 'UklGRiYAAAA=', mimeType: 'audio/wav' },
  { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' } },
  { type: 'resource', resource: { uri: 'file:///blob.bin', blob: 'AAAA' } },
  { type: 'resource_link', uri: 'file:///big.csv', name: 'big.csv', title: 'Big table', description: 'all rows' },
  { type: 'resource_link', uri: 'file:///plain', name: 'plain' },
]

describe('content parts', () => {
  it('words every kind a provider cannot carry as one short text, sizes as decoded bytes', () => {
    expect(parts.map(contentFallbackText)).toEqual([
      'plain',
      '[image image/png, 8 bytes]',
      '[audio audio/wav, 8 bytes]',
      '[resource file:///notes.md (text/markdown)]\n# Notes',
      '[resource file:///blob.bin, 3 bytes]',
      '[resource link Big table file:///big.csv: all rows]',
      '[resource link plain file:///plain]',
    ])
  })

  it('counts as media only what text cannot hold: images, audio and binary resources', () => {
    expect(parts.map(isMediaPart)).toEqual([false, true, true, false, true, false, false])
  })
})
