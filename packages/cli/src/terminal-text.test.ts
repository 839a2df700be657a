import { describe, expect, it } from 'vitest'
import { terminalText } from './terminal-text.js'

describe('terminalText', () => {
  it('turns escape sequences, line breaks and bidi overrides into spaces, so a server cannot redraw the terminal', () => {
    expect(terminalText('ok\u001b[2J\u001b]0;pwned\u0007\r\nnext\u202eevil\u009b', 200)).toBe(
      'ok [2J ]0;pwned   next evil ',
    )
  })

  it('cuts a long text to its bound, ellipsis included, and leaves a short one alone', () => {
    expect(terminalText('x'.repeat(1_000_000), 40)).toBe(`${'x'.repeat(39)}…`)
    expect(terminalText('step 2 of 5', 40)).toBe('step 2 of 5')
  })
})
