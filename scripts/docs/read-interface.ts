import ts from 'typescript'

/** One property of an options interface, as its declaration and JSDoc state it. */
export interface DeclaredField {
  readonly name: string
  readonly type: string
  readonly optional: boolean
  readonly description: string
  /** The `@default` tag's text; undefined when there is none. */
  readonly default: string | undefined
}

export interface InterfaceRequest {
  /** Repository-relative path of the file that declares it. */
  readonly file: string
  readonly name: string
}

/** A TypeScript program over the given files, for reading declarations (nothing is emitted or type-checked). */
export function declarationProgram(root: string, files: readonly string[]): ts.Program {
  return ts.createProgram({
    rootNames: files.map((file) => `${root}/${file}`),
    options: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: [],
    },
  })
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Every property of the interface, inherited ones included, in declaration order. */
export function readInterface(program: ts.Program, root: string, request: InterfaceRequest): DeclaredField[] {
  const source = program.getSourceFile(`${root}/${request.file}`)
  if (source === undefined) throw new Error(`${request.file}: not found`)
  const declaration = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === request.name,
  )
  if (declaration === undefined) throw new Error(`${request.file}: no interface ${request.name}`)
  const checker = program.getTypeChecker()
  const type = checker.getTypeAtLocation(declaration)
  return checker.getPropertiesOfType(type).map((symbol) => {
    const member = symbol.valueDeclaration
    if (member === undefined || !ts.isPropertySignature(member)) {
      throw new Error(`${request.name}.${symbol.name}: not a property signature`)
    }
    const tag = symbol.getJsDocTags(checker).find((entry) => entry.name === 'default')
    return {
      name: symbol.name,
      type: member.type === undefined ? 'unknown' : oneLine(member.type.getText()),
      optional: member.questionToken !== undefined,
      description: oneLine(ts.displayPartsToString(symbol.getDocumentationComment(checker))),
      default: tag?.text === undefined ? undefined : oneLine(ts.displayPartsToString(tag.text)),
    }
  })
}
