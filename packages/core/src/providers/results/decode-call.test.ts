import { describe, expect, it } from 'vitest'
import { toOpenAITools } from '../openai/to-openai-tools.js'
import { decodeCall } from './decode-call.js'

describe('decodeCall', () => {
  it('maps a provider name back only through the report’s own names, never its prototype', () => {
    const { report } = toOpenAITools([{ name: 'add', description: 'Adds', parameters: { type: 'object' } }])
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(decodeCall('a', name, '{}', { report })).toEqual({ id: 'a', name, arguments: '{}' })
    }
    expect(decodeCall('b', 'add', '{}', { report }).name).toBe('add')
  })
})
