import type { PromptSection } from '../registry/tool-schema.js'
import { RUN_CODE_TOOL_NAME } from './ptc-port.js'

export const PTC_ONLY_SECTION_ID = 'tools:ptc-only'
export const SDK_SECTION_ID = 'tools:sdk'
/** First-party order of the SDK section; the direct-call rule comes before it. */
export const SDK_SECTION_ORDER = 5000
export const PTC_ONLY_SECTION_ORDER = 4900

const ptcOnlyText = `Call only \`${RUN_CODE_TOOL_NAME}\` directly. Every other tool named in these instructions is a binding inside a \`${RUN_CODE_TOOL_NAME}\` program, not a tool you can call.`

/**
 * The prompt sections of a code-mode presentation: under `ptc` the direct-call rule, then the SDK
 * (instructions and declarations, never interpolated, so `{{…}}` in descriptions stays literal).
 */
export function ptcSections(mode: 'ptc' | 'both', sdkText: string): PromptSection[] {
  const sdk: PromptSection = { id: SDK_SECTION_ID, order: SDK_SECTION_ORDER, text: sdkText, interpolate: false }
  if (mode === 'both') return [sdk]
  return [{ id: PTC_ONLY_SECTION_ID, order: PTC_ONLY_SECTION_ORDER, text: ptcOnlyText, interpolate: false }, sdk]
}
