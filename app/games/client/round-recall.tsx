/**
 * Game recall (issue 5: "the player can see at least the last 10 rounds of each game as they were
 * played"): what a past round showed, drawn from its stored outcome: the dice roll, the roulette
 * pocket, the slot window, the mines field, the blackjack hands.
 */
import type { ReactNode } from 'react';
import { handTotal } from '#common/games/blackjack';
import { useI18n } from '~/i18n';
import { symbolName, type RoundView } from './shared';

const SUIT_SYMBOLS: Record<string, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };

/** "TH" → "10♥". */
export function cardLabel(card: string | null): string {
  if (!card) return '🂠';
  const rank = card[0] === 'T' ? '10' : (card[0] ?? '?');
  return `${rank}${SUIT_SYMBOLS[card[1] ?? ''] ?? ''}`;
}

function totalLabel(cards: readonly string[]): string {
  const { total, isSoft } = handTotal(cards);
  return isSoft && total <= 21 ? `${total - 10}/${total}` : String(total);
}

/** Columns of symbols (reels) drawn as rows for the eye. */
function SymbolGrid({ columns }: { columns: readonly (readonly string[])[] }) {
  const { t } = useI18n();
  const rows = columns[0]?.length ?? 0;
  return (
    <table className="recall__grid" data-recall-grid>
      <tbody>
        {Array.from({ length: rows }, (_, row) => (
          <tr key={row}>
            {columns.map((column, index) => (
              <td key={index}>{symbolName(t, column[row] ?? '')}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MinesField({ mines, opened }: { mines: readonly number[]; opened: readonly number[] }) {
  return (
    <div className="recall__mines" data-recall-mines>
      {Array.from({ length: 25 }, (_, cell) => {
        const state = mines.includes(cell) ? (opened.includes(cell) ? 'boom' : 'mine') : opened.includes(cell) ? 'gem' : 'closed';
        return (
          <span key={cell} className={`recall__cell is-${state}`} data-recall-cell={state}>
            {state === 'gem' ? '◆' : state === 'closed' ? '·' : '✹'}
          </span>
        );
      })}
    </div>
  );
}

export function RoundRecall({ round }: { round: RoundView }) {
  const { t, tc } = useI18n();
  const outcome = (round.outcome ?? {}) as Record<string, unknown>;
  const bet = (round.bet ?? {}) as Record<string, unknown>;
  let body: ReactNode = null;
  switch (round.engine) {
    case 'dice':
      body = t('gamePlay.recall.dice', {
        roll: (Number(outcome.rollHundredths) / 100).toFixed(2),
        direction: t(`gamePlay.dice.${bet.direction === 'over' ? 'over' : 'under'}`),
        target: String(bet.target ?? ''),
      });
      break;
    case 'roulette':
      body = t('gamePlay.recall.roulette', {
        pocket: String(outcome.pocket),
        color: t(`gamePlay.roulette.color.${String(outcome.color)}`),
      });
      break;
    case 'slot-classic':
    case 'slot-fruits': {
      const spins = (outcome.spins as Array<{ window: string[][] }> | undefined) ?? [];
      body = (
        <>
          {spins[0] && <SymbolGrid columns={spins[0].window} />}
          {spins.length > 1 && <span>{tc('gamePlay.recall.freeSpins', spins.length - 1)}</span>}
        </>
      );
      break;
    }
    case 'slot-cascade': {
      const steps = (outcome.steps as Array<{ grid: string[][] }> | undefined) ?? [];
      body = steps[0] ? <SymbolGrid columns={steps[0].grid} /> : null;
      break;
    }
    case 'mines':
      body = (
        <MinesField
          mines={(outcome.mines as number[] | undefined) ?? []}
          opened={(outcome.opened as number[] | undefined) ?? []}
        />
      );
      break;
    case 'blackjack': {
      const dealer = ((outcome.dealer as Array<string | null> | undefined) ?? []).filter((card): card is string => card !== null);
      const hands = (outcome.hands as Array<{ cards: string[] }> | undefined) ?? [];
      body = (
        <ul className="recall__hands">
          <li data-recall-dealer>
            {t('gamePlay.recall.dealer', { cards: dealer.map(cardLabel).join(' '), total: totalLabel(dealer) })}
          </li>
          {hands.map((hand, index) => (
            <li key={index} data-recall-hand={index}>
              {t('gamePlay.recall.hand', {
                number: index + 1,
                cards: hand.cards.map(cardLabel).join(' '),
                total: totalLabel(hand.cards),
              })}
            </li>
          ))}
        </ul>
      );
      break;
    }
  }
  return (
    <div className="recall" data-recall={round.id}>
      {body}
    </div>
  );
}
