import { expect } from 'vitest'

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  readonly id: string
  readonly name: string
  readonly arguments: Record<string, unknown>
}

/**
 * What the model does in each round, whatever the framework: first four calls (a city too short for the zod
 * schema, a flight search that times out, a booking that throws, a note in the memory server), then the call
 * that needs approval, then its answer.
 */
export type Script = readonly (readonly ScriptedCall[] | string)[]

export const travelScript: Script = [
  [
    { id: 'call_weather', name: 'get_weather', arguments: { city: 'X' } },
    { id: 'call_flights', name: 'search_flights', arguments: { from: 'Oslo', to: 'Rome' } },
    { id: 'call_hotel', name: 'book_hotel', arguments: { city: 'Rome' } },
    {
      id: 'call_memory',
      name: 'memory__create_entities',
      arguments: { entities: [{ name: 'Rome trip', entityType: 'trip', observations: ['leaves Friday'] }] },
    },
  ],
  [{ id: 'call_cancel', name: 'cancel_trip', arguments: { trip: 'Rome trip' } }],
  'The weather city was too short, flights timed out, the hotel failed; the cancellation is with you.',
]

/** What the model does in `round` (0-based): the script's step, its last step once the script has run out. */
export function stepOf(round: number, script: Script = travelScript): readonly ScriptedCall[] | string {
  return script[Math.min(round, script.length - 1)]!
}

/** What the model must read back for the first round's calls, whatever the framework carries it in. */
export const expectedResults = {
  call_weather:
    'Error: Invalid arguments for get_weather: at /city: Too small: expected string to have >=2 characters, received string "X"',
  call_flights: 'Error: search_flights did not finish within 200 ms.',
  call_hotel: 'Error: the booking service is down',
  call_memory: expect.stringContaining('"name": "Rome trip"'),
} as const
