import { StoreError, StoreErrorCode } from './store-error.js'

/**
 * Imports an optional peer dependency on first use, so a host that uses one store never loads (or installs) the
 * other's driver. A missing package becomes `STORE_DRIVER_MISSING` naming what to install; any other failure to
 * load it is passed on as it is.
 */
export async function loadDriver<Module>(packageName: string, purpose: string): Promise<Module> {
  try {
    return (await import(packageName)) as Module
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    if (code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(`'${packageName}'`)) {
      throw new StoreError(
        StoreErrorCode.DRIVER_MISSING,
        `${purpose} needs the ${packageName} package, which is not installed: npm install ${packageName}`,
        { cause: error },
      )
    }
    throw error
  }
}
