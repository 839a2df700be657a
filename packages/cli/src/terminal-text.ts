/** C0 and C1 controls, DEL, and the bidirectional overrides and isolates that reorder what a terminal shows. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it removes
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/**
 * A server-written text as one line a terminal shows as it is: controls (escape sequences, carriage returns,
 * newlines) become spaces, and past `maxLength` characters it is cut with an ellipsis.
 */
export function terminalText(text: string, maxLength: number): string {
  const line = text.replace(UNPRINTABLE, ' ')
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line
}
