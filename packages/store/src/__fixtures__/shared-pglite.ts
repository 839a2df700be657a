import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll } from 'vitest'

/**
 * One in-memory PGlite database for a whole test file: starting PGlite compiles PostgreSQL's WebAssembly and runs
 * initdb, seconds each time on a loaded machine. `emptied()` drops the store's tables first, so a test that opens a
 * store on it still runs every migration.
 */
export function sharedPglite(): { readonly database: () => PGlite; readonly emptied: () => Promise<PGlite> } {
  let database: PGlite | undefined
  beforeAll(async () => {
    database = await PGlite.create('memory://')
  }, 120_000)
  afterAll(async () => {
    await database?.close()
  })
  const opened = () => {
    if (database === undefined) throw new Error('sharedPglite: the database is opened in beforeAll')
    return database
  }
  return {
    database: opened,
    async emptied() {
      await opened().exec('DROP TABLE IF EXISTS qilin_approvals, qilin_session_log, qilin_schema_version')
      return opened()
    },
  }
}
