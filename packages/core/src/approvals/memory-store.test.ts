import { describe, expect, it } from 'vitest'
import { createMemoryStore } from './memory-store.js'
import { describeToolStoreConformance, pendingApproval } from './store-conformance.js'

describeToolStoreConformance('memory', { open: async () => createMemoryStore() })

describe('createMemoryStore', () => {
  it('refuses every call once closed, as a rejection', async () => {
    const store = createMemoryStore()
    await store.close()
    await expect(store.putApproval(pendingApproval())).rejects.toThrow(/after close/)
    await expect(store.readSessionLog()).rejects.toThrow(/after close/)
  })

  it('hands out frozen records, so no caller can change what another reads', async () => {
    const store = createMemoryStore()
    const record = pendingApproval()
    await store.putApproval(record)
    const stored = await store.getApproval(record.approvalId)
    expect(Object.isFrozen(stored)).toBe(true)
    expect(Object.isFrozen(stored?.arguments)).toBe(true)
  })
})
