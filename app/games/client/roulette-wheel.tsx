/**
 * The European roulette wheel both roulettes draw (the in-house table and the live one): 37
 * pockets in wheel order as SVG, turned so the winning pocket stops under the marker. `turns`
 * adds whole turns, so each new spin visibly rotates; the ball shows once a pocket is known.
 */
import { pocketColor } from '#common/games/roulette';

/** The European wheel's pockets, clockwise from zero. */
export const WHEEL_ORDER = [
  0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12,
  35, 3, 26,
];

export function RouletteWheel({
  pocket,
  turns = 0,
  isSpinning = false,
  className = '',
  ballClassName,
}: {
  pocket: number | null;
  turns?: number;
  isSpinning?: boolean;
  className?: string;
  ballClassName?: string;
}) {
  const slice = 360 / WHEEL_ORDER.length;
  const rotation = pocket === null ? 0 : -turns * 720 - WHEEL_ORDER.indexOf(pocket) * slice;
  return (
    <div className={`roulette-wheel ${className} ${isSpinning ? 'is-spinning' : ''}`} aria-hidden="true">
      <svg viewBox="-100 -100 200 200" className="roulette-wheel__disc" style={{ transform: `rotate(${rotation}deg)` }}>
        {WHEEL_ORDER.map((number, i) => {
          const start = ((i - 0.5) * slice - 90) * (Math.PI / 180);
          const end = ((i + 0.5) * slice - 90) * (Math.PI / 180);
          const path = `M0,0 L${95 * Math.cos(start)},${95 * Math.sin(start)} A95,95 0 0,1 ${95 * Math.cos(end)},${95 * Math.sin(end)} Z`;
          const label = ((i * slice - 90) * Math.PI) / 180;
          return (
            <g key={number}>
              <path d={path} className={`roulette-wheel__pocket is-${pocketColor(number)}`} />
              <text
                x={80 * Math.cos(label)}
                y={80 * Math.sin(label)}
                className="roulette-wheel__label"
                transform={`rotate(${i * slice} ${80 * Math.cos(label)} ${80 * Math.sin(label)})`}
              >
                {number}
              </text>
            </g>
          );
        })}
        <circle r="55" className="roulette-wheel__hub" />
      </svg>
      <span className="roulette-wheel__marker" />
      {ballClassName && pocket !== null && <span key={turns} className={ballClassName} />}
    </div>
  );
}
