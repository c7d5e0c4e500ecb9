/**
 * Findings of issue 11 that other branches are fixing while this suite lands. The attack suite
 * keeps every assertion strict; the only way it lets a known hole pass is an entry here, and each
 * entry names who fixes it. Empty this list once those branches are merged: the probes gated by
 * an entry switch on by themselves.
 */
export const KNOWN_FINDINGS_ISSUE_11 = [
  /** (5) A NUL character in a text parameter reaches PostgreSQL and answers HTTP 500 — helper B. */
  'nul-character-answers-500',
  /** (5) A lone UTF-16 surrogate in a text parameter answers HTTP 500 — helper B, with the NUL fix. */
  'lone-surrogate-answers-500',
  /** (2) /oauth/init?…&redirect_url=/.//evil.example sends the browser off-site — helper B. */
  'oauth-init-open-redirect',
  /** (3) One TOTP code signs in several times under parallel sign-ins — helper B. */
  'totp-code-reused-in-parallel',
  /** (6) A cross-site GET /api/auth.logout signs the player out — helper C. */
  'cross-site-get-logout',
] as const;

export type KnownFinding = (typeof KNOWN_FINDINGS_ISSUE_11)[number];

export function isKnownFinding(finding: KnownFinding): boolean {
  return (KNOWN_FINDINGS_ISSUE_11 as readonly string[]).includes(finding);
}

/** Any text of `value` (nested in arrays and objects too) holding U+0000. */
export function containsNul(value: unknown): boolean {
  return someText(value, (text) => text.includes('\u0000'));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Any text of `value` holding a UTF-16 surrogate that is not half of a pair. */
export function containsLoneSurrogate(value: unknown): boolean {
  return someText(value, (text) => LONE_SURROGATE.test(text));
}

function someText(value: unknown, test: (text: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.some((item) => someText(item, test));
  if (value && typeof value === 'object') return Object.entries(value).some(([key, item]) => test(key) || someText(item, test));
  return false;
}

/**
 * Whether a 5xx answer to these parameters is one of the known findings above: only while the
 * finding is listed, and only when the parameters carry the character that causes it.
 */
export function isKnown5xx(params: unknown): boolean {
  return (
    (isKnownFinding('nul-character-answers-500') && containsNul(params)) ||
    (isKnownFinding('lone-surrogate-answers-500') && containsLoneSurrogate(params))
  );
}
