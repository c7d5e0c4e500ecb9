/**
 * Game tile art generated as SVG from the game's name, so no image is fetched from outside.
 * The same name always gives the same picture.
 */
function hash(text: string): number {
  let value = 2166136261;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 16777619);
  return value >>> 0;
}

export function GameArt({ name, title }: { name: string; title: string }) {
  const seed = hash(name);
  const hueA = seed % 360;
  const hueB = (hueA + 40 + ((seed >> 8) % 120)) % 360;
  const shape = (seed >> 16) % 3;
  const id = `g${seed.toString(36)}`;
  const letters = title
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0] ?? '')
    .join('')
    .toUpperCase();
  return (
    <svg viewBox="0 0 288 192" className="game-art" role="img" aria-label={title}>
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={`hsl(${hueA} 80% 45%)`} />
          <stop offset="1" stopColor={`hsl(${hueB} 75% 30%)`} />
        </linearGradient>
      </defs>
      <rect width="288" height="192" fill={`url(#${id})`} />
      {shape === 0 && <circle cx="220" cy="40" r="70" fill="#fff" opacity=".12" />}
      {shape === 1 && (
        <rect x="170" y="-20" width="140" height="140" rx="28" transform="rotate(20 240 50)" fill="#fff" opacity=".12" />
      )}
      {shape === 2 && <path d="M0 150 Q 144 60 288 150 V192 H0z" fill="#fff" opacity=".12" />}
      <text x="24" y="120" fontFamily="system-ui, sans-serif" fontWeight="900" fontSize="72" fill="#fff" opacity=".9">
        {letters}
      </text>
    </svg>
  );
}
