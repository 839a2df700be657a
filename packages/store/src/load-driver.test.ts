import { describe, expect, it } from 'vitest'
import { loadDriver } from './load-driver.js'

describe('loadDriver', () => {
  it('names the package to install when an optional driver is missing', async () => {
    await expect(loadDriver('qilin-tools-no-such-driver', 'createExampleStore')).rejects.toMatchObject({
      code: 'STORE_DRIVER_MISSING',
      message:
        'createExampleStore needs the qilin-tools-no-such-driver package, which is not installed: npm install qilin-tools-no-such-driver',
    })
  })

  it('loads an installed driver', async () => {
    const pg = await loadDriver<{ default: { Pool: unknown } }>('pg', 'createPostgresStore')
    expect(typeof pg.default.Pool).toBe('function')
  })
})
