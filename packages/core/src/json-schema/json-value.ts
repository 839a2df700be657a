/** A JSON scalar: a string, a number, a boolean or null. */
export type JsonPrimitive = string | number | boolean | null
/** A JSON array. */
export type JsonArray = JsonValue[]
/** A JSON object: string keys to JSON values. */
export interface JsonObject {
  [key: string]: JsonValue
}
/** Any value JSON text can hold. */
export type JsonValue = JsonPrimitive | JsonArray | JsonObject
