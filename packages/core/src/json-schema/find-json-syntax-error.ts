/** Where and why a JSON text is invalid, for messages a model can act on. */
export interface JsonSyntaxError {
  readonly offset: number
  readonly line: number
  readonly column: number
  readonly expected: string
  readonly found: string
}

class Stop {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])
const HEX4 = /^[0-9a-fA-F]{4}$/
const LITERALS = ['true', 'false', 'null']

/**
 * Re-reads text that `JSON.parse` rejected and finds the first offending character. Recursive descent is safe
 * here because callers check the nesting depth first.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let index = 0
  const skipSpace = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index]!)) index++
  }
  const expect = (char: string, expected: string) => {
    if (text[index] !== char) throw new Stop(index, expected)
    index++
  }
  const readString = (what = 'a string in double quotes') => {
    expect('"', what)
    for (;;) {
      const char = text[index]
      if (char === undefined) throw new Stop(index, 'a closing double quote')
      if (char === '"') {
        index++
        return
      }
      if (char === '\\') {
        const escaped = text[index + 1] ?? ''
        if (escaped === 'u' && HEX4.test(text.slice(index + 2, index + 6))) index += 6
        else if (ESCAPES.has(escaped)) index += 2
        else throw new Stop(index, 'a valid escape sequence')
        continue
      }
      if (char.charCodeAt(0) < 0x20) throw new Stop(index, 'an escaped control character')
      index++
    }
  }
  const readMembers = (close: string, readMember: () => void, what: string) => {
    index++
    skipSpace()
    if (text[index] === close) {
      index++
      return
    }
    for (;;) {
      readMember()
      skipSpace()
      if (text[index] === ',') {
        index++
        skipSpace()
        continue
      }
      expect(close, `"," or "${close}" after ${what}`)
      return
    }
  }
  const readValue = (): void => {
    const char = text[index]
    if (char === '{') {
      readMembers(
        '}',
        () => {
          readString('a property name in double quotes')
          skipSpace()
          expect(':', '":" after a property name')
          skipSpace()
          readValue()
        },
        'a property value',
      )
      return
    }
    if (char === '[') {
      readMembers(']', readValue, 'an array item')
      return
    }
    if (char === '"') {
      readString()
      return
    }
    const literal = LITERALS.find((word) => text.startsWith(word, index))
    if (literal !== undefined) {
      index += literal.length
      return
    }
    NUMBER.lastIndex = index
    if (NUMBER.test(text)) {
      index = NUMBER.lastIndex
      return
    }
    throw new Stop(index, 'a JSON value')
  }
  try {
    skipSpace()
    readValue()
    skipSpace()
    if (index < text.length) throw new Stop(index, 'the end of the input')
    return undefined
  } catch (error) {
    if (!(error instanceof Stop)) throw error
    return locate(text, error)
  }
}

function locate(text: string, stop: Stop): JsonSyntaxError {
  const before = text.slice(0, stop.offset)
  const lineStart = before.lastIndexOf('\n') + 1
  const found =
    stop.offset >= text.length ? 'the end of the input' : JSON.stringify(text.slice(stop.offset, stop.offset + 12))
  return {
    offset: stop.offset,
    line: before.split('\n').length,
    column: stop.offset - lineStart + 1,
    expected: stop.expected,
    found,
  }
}
