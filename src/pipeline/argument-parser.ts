// TEMPORARY until src/json-schema/parse-json-arguments.ts lands.
export function parseJsonArguments(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}
