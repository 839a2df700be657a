import { describe, expect, it } from 'vitest'
import { docstring, isPythonIdentifier, pythonClassName, pythonToolAccess, toolAttributes } from './python-names.js'

describe('python names', () => {
  it('gives each tool an attribute: its own name, an underscore spelling, or none', () => {
    const attributes = toolAttributes([
      'read_file',
      'get-sum',
      'get_total',
      'get-total',
      'class',
      '9lives',
      '__dict__',
      'a.b',
      'a-b',
    ])
    expect(Object.fromEntries(attributes)).toEqual({
      read_file: 'read_file',
      'get-sum': 'get_sum',
      get_total: 'get_total',
      'get-total': undefined,
      class: 'class_',
      '9lives': '_9lives',
      __dict__: undefined,
      'a.b': undefined,
      'a-b': undefined,
    })
  })

  it('reaches odd names by subscript', () => {
    expect(pythonToolAccess('read_file')).toBe('tools.read_file')
    expect(pythonToolAccess('get-sum')).toBe('tools["get-sum"]')
    expect(pythonToolAccess('__class__')).toBe('tools["__class__"]')
  })

  it('knows keywords and non-ASCII are not identifiers', () => {
    expect(['from', 'None', 'lambda', 'café', '1x', ''].filter(isPythonIdentifier)).toEqual([])
    expect(['match', 'type', '_', 'snake_case'].every(isPythonIdentifier)).toBe(true)
  })

  it('builds class names and safe docstrings', () => {
    expect(['read_file result', 'API-get-user', '3d', '---'].map(pythonClassName)).toEqual([
      'ReadFileResult',
      'APIGetUser',
      'T3d',
      'Shape',
    ])
    expect(docstring('Ends with a "quote"\nand """triple""" \\ slash', '    ')).toBe(
      '    """Ends with a "quote"\n    and \\"\\"\\"triple\\"\\"\\" \\\\ slash"""\n',
    )
  })
})
