/**
 * A value as JSON inside an inline <script>: `<` escaped so no value can close the script element
 * or open a comment in it, and the two line separators JavaScript once refused in strings.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
