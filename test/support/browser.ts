import { type Browser, chromium } from 'playwright-core'
import { CHROMIUM_PATH } from './system-requirement.js'

/** The flags every browser test and bench runs Debian's chromium with. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Debian's chromium, headless, driven by playwright-core (no browser download). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true })
}
