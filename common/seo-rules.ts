/** SEO rules of spec §9: robots Disallow rules make pages noindex, follow; text replacements. */

/** The Disallow prefixes of the robots.txt rules that apply to every crawler (User-agent: *). */
export function disallowedPrefixes(robotsText: string): string[] {
  const prefixes: string[] = [];
  let appliesToAll = false;
  for (const raw of robotsText.split('\n')) {
    const line = raw.split('#')[0]?.trim() ?? '';
    const [field = '', ...rest] = line.split(':');
    const value = rest.join(':').trim();
    const name = field.trim().toLowerCase();
    if (name === 'user-agent') appliesToAll = value === '*';
    else if (name === 'disallow' && appliesToAll && value) prefixes.push(value);
  }
  return prefixes;
}

/** robots meta for a path: 'noindex, follow' when a Disallow rule covers it. */
export function robotsMetaFor(pathname: string, robotsText: string | undefined): string | undefined {
  if (!robotsText) return undefined;
  const isDisallowed = disallowedPrefixes(robotsText).some((prefix) => {
    const bare = prefix.endsWith('*') ? prefix.slice(0, -1) : prefix;
    return (
      pathname === bare ||
      pathname.startsWith(bare.endsWith('/') ? bare : `${bare}/`) ||
      (prefix.endsWith('*') && pathname.startsWith(bare))
    );
  });
  return isDisallowed ? 'noindex, follow' : undefined;
}

/** Applies the configured text replacements (every occurrence of each key) to an SEO string. */
export function applyReplacements(text: string, replacements: Record<string, string> | undefined): string {
  if (!replacements) return text;
  return Object.entries(replacements).reduce((out, [from, to]) => (from ? out.split(from).join(to) : out), text);
}
