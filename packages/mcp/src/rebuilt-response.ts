/** Statuses whose response carries no body (a Response with one cannot be built). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304])

/**
 * `response` with `body` in place of its own: the same status, headers and URL (the SDK names a redirect it did not
 * follow, and an endpoint, by the response's URL, which a built Response would leave empty).
 */
export function withBody(response: Response, body: ConstructorParameters<typeof Response>[0]): Response {
  const rebuilt = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
  Object.defineProperty(rebuilt, 'url', { value: response.url })
  return rebuilt
}
