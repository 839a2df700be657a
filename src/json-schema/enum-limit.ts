/**
 * The most members one `enum` may list. Far past what any provider accepts (OpenAI's strict mode takes 1,000 in a
 * whole schema), and low enough that checking, compiling and freezing one stays a few milliseconds: a million-value
 * enum once held the event loop for seconds at definition time, before any budget could leave the tool out.
 */
export const MAX_ENUM_MEMBERS = 4_096

/** Why an `enum` of `count` members is refused, or undefined when it is within the cap. */
export function enumSizeProblem(count: number): string | undefined {
  return count > MAX_ENUM_MEMBERS ? `lists ${count} members, over the cap of ${MAX_ENUM_MEMBERS}` : undefined
}
