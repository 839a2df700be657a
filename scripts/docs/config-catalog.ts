import type { ConfigField, ConfigShape, ConfigShapeKind } from '@qilin-tools/cli/internal/config-fields.js'
import { generatedNotice, table } from './markdown.js'
import type { DeclaredField } from './read-interface.js'

type ShapeOf<Kind extends ConfigShapeKind> = Extract<ConfigShape, { kind: Kind }>

/** Each kind of shape as the catalog's Type column writes it. */
const typeTexts: { readonly [Kind in ConfigShapeKind]: (shape: ShapeOf<Kind>) => string } = {
  string: () => 'non-empty string',
  boolean: () => 'boolean',
  positiveInteger: () => 'integer ≥ 1',
  oneOf: ({ values }) => values.map((value) => `"${value}"`).join(' | '),
  stringList: () => 'string[]',
  recordOf: ({ key, item }) => `{ [${key}]: ${typeText(item)} }`,
  object: () => 'object',
  offOr: () => 'false | object',
  either: () => 'object',
}

function typeText(shape: ConfigShape): string {
  return (typeTexts[shape.kind] as (shape: ConfigShape) => string)(shape)
}

interface FieldTable {
  readonly heading: string
  readonly intro: string
  readonly fields: Readonly<Record<string, ConfigField>>
}

/** The tables below one field: its own members, or its entries' members, one table per object. */
function nestedTables(path: string, field: ConfigField): FieldTable[] {
  const shape = field.shape
  const below = (at: string, inner: ConfigShape, intro: string): FieldTable[] => {
    if (inner.kind === 'object') {
      const own = { heading: `\`${at}\``, intro, fields: inner.fields }
      return [own, ...Object.entries(inner.fields).flatMap(([name, child]) => nestedTables(`${at}.${name}`, child))]
    }
    if (inner.kind === 'offOr') return below(at, inner.shape, intro)
    if (inner.kind === 'either') {
      return [inner.otherwise, inner.when].flatMap((branch) => below(at, branch, `${branch.title ?? at}.`))
    }
    return []
  }
  if (shape.kind === 'recordOf') return below(`${path}.<${shape.key}>`, shape.item, `One entry of \`${path}\`.`)
  return below(path, shape, field.description)
}

function cliTable(fields: Readonly<Record<string, ConfigField>>): string {
  return table(
    ['Field', 'Type', 'Default', 'Meaning'],
    Object.entries(fields).map(([name, field]) => [
      `\`${name}\``,
      typeText(field.shape),
      field.default,
      field.description,
    ]),
  )
}

/** One options interface of the library, read from its declaration. */
export interface OptionsSection {
  readonly heading: string
  readonly intro: string
  readonly interfaceName: string
  readonly fields: readonly DeclaredField[]
}

/** Fails naming every field without a meaning, or optional and without a default. */
export function checkDeclaredFields(sections: readonly OptionsSection[]): void {
  const missing = sections.flatMap((section) =>
    section.fields.flatMap((field) => [
      ...(field.description === '' ? [`${section.interfaceName}.${field.name} has no description`] : []),
      ...(field.optional && field.default === undefined
        ? [
            `${section.interfaceName}.${field.name} has no @default tag (write "@default none" when absence is the default)`,
          ]
        : []),
    ]),
  )
  if (missing.length > 0) throw new Error(`configuration catalog: ${missing.join('; ')}`)
}

function optionsTable(section: OptionsSection): string {
  return table(
    ['Field', 'Type', 'Default', 'Meaning'],
    section.fields.map((field) => [
      `\`${field.name}\``,
      `\`${field.type}\``,
      field.optional ? (field.default ?? '') : (field.default ?? 'required'),
      field.description,
    ]),
  )
}

export interface ConfigCatalogInput {
  readonly cliFields: Readonly<Record<string, ConfigField>>
  readonly sections: readonly OptionsSection[]
}

/** `docs/config-catalog.md`: the CLI's file, then each options object of the library. */
export function configCatalog(input: ConfigCatalogInput): string {
  checkDeclaredFields(input.sections)
  const nested = Object.entries(input.cliFields).flatMap(([name, field]) => nestedTables(name, field))
  const cli = [
    '## `qilin.config.json` (the CLI)\n',
    'Checked by `parseConfig` (`packages/cli/src/config-fields.ts` describes every field); an unknown field is refused.',
    'Editors complete and check the file against [`qilin.config.schema.json`](qilin.config.schema.json): set',
    '`"$schema"` to its path. Relative paths are relative to the file.\n',
    cliTable(input.cliFields),
    ...nested.map((entry) => `### ${entry.heading}\n\n${entry.intro}\n\n${cliTable(entry.fields)}`),
  ].join('\n')
  const library = input.sections.map(
    (section) => `## ${section.heading}\n\n${section.intro}\n\n${optionsTable(section)}`,
  )
  return [
    generatedNotice('the code that validates configuration and the options interfaces'),
    '# Configuration catalog\n',
    'Every field qilin-tools reads: its type, its default and what it means.\n',
    cli,
    ...library,
  ].join('\n')
}
