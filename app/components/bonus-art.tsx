/** The bonus pages' illustration: a gift box with a ribbon and sparkles, drawn inline (no request). */
export function BonusArt({ size = 160 }: { size?: number }) {
  return (
    <svg className="bonus-art" width={size} height={size} viewBox="0 0 160 160" role="img" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="bonus-art-box" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#7c3aed" />
          <stop offset="1" stopColor="#4c1d95" />
        </linearGradient>
        <linearGradient id="bonus-art-ribbon" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#fcd34d" />
          <stop offset="1" stopColor="#f5b301" />
        </linearGradient>
      </defs>
      <circle cx="80" cy="84" r="64" fill="#f5b301" opacity="0.08" />
      <rect x="34" y="72" width="92" height="62" rx="8" fill="url(#bonus-art-box)" />
      <rect x="28" y="56" width="104" height="22" rx="6" fill="#8b5cf6" />
      <rect x="72" y="56" width="16" height="78" fill="url(#bonus-art-ribbon)" />
      <path d="M80 56c-6-14-26-22-30-10-3 9 14 12 30 10z" fill="none" stroke="#fcd34d" strokeWidth="6" strokeLinejoin="round" />
      <path d="M80 56c6-14 26-22 30-10 3 9-14 12-30 10z" fill="none" stroke="#fcd34d" strokeWidth="6" strokeLinejoin="round" />
      <path d="M128 24l3 8 8 3-8 3-3 8-3-8-8-3 8-3z" fill="#fcd34d" />
      <path d="M30 30l2 5 5 2-5 2-2 5-2-5-5-2 5-2z" fill="#c4b5fd" />
      <circle cx="140" cy="70" r="3" fill="#c4b5fd" />
      <circle cx="20" cy="96" r="2.5" fill="#fcd34d" />
    </svg>
  );
}
