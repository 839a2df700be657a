import { escapePointerToken } from '../json-schema/json-pointer.js'

/** Records one rule the JSON Schema projection leaves out, at a JSON pointer into that projection. */
export type NoteRule = (pointer: string, rule: string) => void

/** What we know of one Standard Schema library beyond the Standard interfaces. */
export interface VendorRules {
  /** What to tell an author whose schema has no Standard JSON Schema converter. */
  readonly missingConverterHint: string
  /**
   * `libraryOptions` for the converter that make it report, through `note`, each rule it cannot express (a
   * refinement, a transform) instead of dropping it without a word.
   */
  readonly observe?: (note: NoteRule) => Record<string, unknown>
  /**
   * `libraryOptions` under which a converter that throws on a rule it cannot express keeps the rest instead, and which
   * thrown messages name such a rule (a refinement, not a value JSON cannot carry); the message is then the note.
   */
  readonly lenient?: { readonly options: Record<string, unknown>; readonly applies: (message: string) => boolean }
  /**
   * Whether its validate may change the value it is given (arktype morphs and defaults write into the input).
   * Arguments are frozen, so such a library is handed a copy. Unknown libraries are assumed to.
   */
  readonly mutatesInput: boolean
}

interface ZodDefinition {
  readonly type?: unknown
  readonly checks?: readonly { readonly _zod?: { readonly def?: { readonly check?: unknown } } }[]
  readonly in?: { readonly _zod?: { readonly def?: { readonly type?: unknown } } }
  readonly out?: { readonly _zod?: { readonly def?: { readonly type?: unknown } } }
}

function pointerOf(path: unknown): string {
  return Array.isArray(path) ? path.map((token) => `/${escapePointerToken(String(token))}`).join('') : ''
}

/** zod calls `override` for every schema it converts; its definition says whether a refinement or transform sits there. */
function observeZod(note: NoteRule): Record<string, unknown> {
  return {
    override(context: { readonly zodSchema?: { readonly _zod?: { readonly def?: ZodDefinition } }; path?: unknown }) {
      const definition = context.zodSchema?._zod?.def
      if (definition === undefined) return
      const pointer = pointerOf(context.path)
      if (definition.checks?.some((check) => check._zod?.def?.check === 'custom')) {
        note(pointer, 'a refinement (.refine, .superRefine or .check)')
      }
      if (definition.type === 'transform') note(pointer, 'a transform')
      if (
        definition.type === 'pipe' &&
        (definition.in?._zod?.def?.type === 'transform' || definition.out?._zod?.def?.type === 'transform')
      ) {
        note(pointer, 'a transform (.transform or z.preprocess)')
      }
    },
  }
}

const arktypeFallbacks = ['predicate', 'morph', 'proto', 'domain', 'unit', 'date', 'patternIntersection', 'symbolKey']
const arktypeWording: Readonly<Record<string, string>> = {
  predicate: 'a predicate (.narrow)',
  morph: 'a morph (.pipe or =>)',
}

/** arktype asks a fallback for each part JSON Schema cannot hold; each answers what the standard converter would. */
function observeArktype(note: NoteRule): Record<string, unknown> {
  const fallback: Record<string, (context: { readonly base?: unknown }) => unknown> = {}
  for (const code of arktypeFallbacks) {
    fallback[code] = (context) => {
      note('', arktypeWording[code] ?? `a ${code} constraint`)
      return context.base ?? {}
    }
  }
  fallback.defaultValue = () => undefined
  return { fallback }
}

/** Per library vendor name (`~standard.vendor`). A library not listed gets only the Standard interfaces. */
export const vendorRules: Readonly<Record<string, VendorRules>> = {
  zod: {
    missingConverterHint: 'zod 4.2 or later exposes a JSON Schema converter; zod 3 schemas are not supported',
    observe: observeZod,
    mutatesInput: false,
  },
  valibot: {
    missingConverterHint: 'wrap it with toStandardJsonSchema(schema) from @valibot/to-json-schema',
    // Its converter throws `The "check" action cannot be converted…` for a refinement, `The "date" schema…` for a
    // value JSON cannot carry: only the first kind is a rule the library alone enforces.
    lenient: { options: { errorMode: 'ignore' }, applies: (message) => /^The "\w+" action /.test(message) },
    mutatesInput: false,
  },
  arktype: {
    missingConverterHint: 'arktype 2.1 or later exposes a JSON Schema converter',
    observe: observeArktype,
    mutatesInput: true,
  },
}

export const unknownVendorHint = 'use a library that implements Standard JSON Schema'
