/**
 * Blackjack (casino; common/games/blackjack.ts): one hand against the dealer from a six-deck shoe.
 * The round lives on the server: games.start deals, games.act plays each action, and only the
 * actions the server answers as allowed are offered. A split plays its hands in turn (the active
 * one is highlighted); the end shows the dealer's cards, each hand's result and the payout.
 */
import { useState } from 'react';
import { amountToMinor, formatMoney, minorToAmount, money } from '#common/money';
import { handTotal } from '#common/games/blackjack';
import { useI18n } from '~/i18n';
import type { GameComponentProps } from './shared';
import { useStatefulRound } from './mines';

type Outcome = 'blackjack' | 'win' | 'push' | 'lose' | 'bust';

interface HandView {
  cards: string[];
  stakeMinor: string;
  isDoubled: boolean;
  isFromSplit: boolean;
  isDone: boolean;
}

/** The blackjack table as games.start / games.act answer it (bigints as strings). */
interface BlackjackView {
  phase: 'insurance' | 'player' | 'finished';
  betMinor: string;
  hands: HandView[];
  activeHand: number;
  dealer: Array<string | null>;
  insuranceMinor: string | null;
  totalStakeMinor: string;
  result: {
    hands: Array<{ outcome: Outcome; payoutMinor: string }>;
    dealerTotal: number;
    isDealerBlackjack: boolean;
    insurancePayoutMinor: string;
    payoutMinor: string;
  } | null;
  /** While the round is open: the actions allowed now. A settled round lists the actions played instead. */
  actions: unknown[];
}

/** The order the action buttons are shown in. */
const ACTIONS = ['hit', 'stand', 'double', 'split', 'insurance', 'no-insurance'] as const;
/** Actions that put more money on the table: refused while allowed means the balance is short. */
const STAKING = ['double', 'split', 'insurance'];

const SUITS: Record<string, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };

function PlayingCard({ card, hiddenLabel, index }: { card: string | null; hiddenLabel: string; index: number }) {
  const style = { animationDelay: `${index * 60}ms` };
  if (!card)
    return (
      <span
        className="playing-card is-back"
        data-card="hidden"
        role="img"
        aria-label={hiddenLabel}
        title={hiddenLabel}
        style={style}
      />
    );
  const rank = card[0] === 'T' ? '10' : (card[0] ?? '');
  const suit = SUITS[card[1] ?? ''] ?? '';
  const color = card[1] === 'H' || card[1] === 'D' ? 'red' : 'black';
  return (
    <span className={`playing-card is-${color}`} data-card={card} role="img" aria-label={`${rank}${suit}`} style={style}>
      <span className="playing-card__corner">
        {rank}
        <br />
        {suit}
      </span>
      <span className="playing-card__pip" aria-hidden="true">
        {suit}
      </span>
      <span className="playing-card__corner is-bottom" aria-hidden="true">
        {rank}
        <br />
        {suit}
      </span>
    </span>
  );
}

/** A hand's total as the player reads it: "7/17" while an ace still counts either way. */
function totalText(cards: readonly string[], isFinal: boolean): { text: string; total: number } {
  if (cards.length === 0) return { text: '', total: 0 };
  const { total, isSoft } = handTotal(cards);
  return { text: isSoft && !isFinal && total < 21 ? `${total - 10}/${total}` : String(total), total };
}

export function BlackjackGame(props: GameComponentProps) {
  const { minBet, maxBet } = props;
  const { t } = useI18n();
  const [stake, setStake] = useState(Number(minBet) > 1 ? minBet : '1.00');
  const [allowedNow, setAllowedNow] = useState<string[]>([]);
  const { answer, isBusy, isReady, isResumed, start, act, line } = useStatefulRound<BlackjackView>(
    props,
    'blackjack',
    (field, action) =>
      field === 'action' && STAKING.includes(action) && allowedNow.includes(action)
        ? t('gamePlay.blackjack.error.balance')
        : undefined,
  );
  const round = answer?.round;
  const view = answer?.game;
  const isOpen = round?.status === 'open';
  const isFinished = view?.phase === 'finished' || round?.status === 'settled';
  const currency = round?.stake.currency ?? answer?.balance?.currency ?? 'EUR';
  const allowed = isOpen && view ? view.actions.filter((item): item is string => typeof item === 'string') : [];
  const canPlay = isReady && !isBusy;
  const asMoney = (minor: string | bigint) => formatMoney(money(BigInt(minor), currency));
  const hiddenLabel = t('gamePlay.blackjack.hidden');

  function play(action: string) {
    setAllowedNow(allowed);
    void act(action);
  }

  const dealerCards = view?.dealer ?? [];
  const dealerKnown = dealerCards.filter((card): card is string => card !== null);
  const dealerTotal = totalText(dealerKnown, isFinished);
  const hands = view?.hands ?? [];

  const status = !isReady
    ? t('gamePlay.blackjack.loading')
    : !view
      ? t('gamePlay.blackjack.idle')
      : isFinished
        ? view.result?.isDealerBlackjack
          ? t('gamePlay.blackjack.dealerBlackjack')
          : t('gamePlay.blackjack.finished')
        : `${isResumed ? `${t('gamePlay.blackjack.resumed')} ` : ''}${
            view.phase === 'insurance'
              ? t('gamePlay.blackjack.insuranceOffer')
              : hands.length > 1
                ? t('gamePlay.blackjack.playingHand', { number: view.activeHand + 1, count: hands.length })
                : t('gamePlay.blackjack.yourTurn')
          }`;

  const payoutMinor = round ? amountToMinor(round.payout.amount) : 0n;
  const stakeMinor = round ? amountToMinor(round.stake.amount) : 0n;
  const overall = payoutMinor > stakeMinor ? 'win' : payoutMinor === stakeMinor && payoutMinor > 0n ? 'push' : 'loss';

  return (
    <section
      className="game-client__panel table-game blackjack"
      data-blackjack
      data-ready={isReady ? 'true' : 'false'}
      data-busy={isBusy ? 'true' : 'false'}
      data-round-id={round?.id ?? ''}
      data-round-status={round?.status ?? ''}
      data-phase={view?.phase ?? ''}
    >
      <p className="table-game__status" data-table-status aria-live="polite">
        {status}
      </p>

      <div className="blackjack__felt">
        <div className="blackjack__seat is-dealer" data-dealer-hand data-total={dealerKnown.length ? dealerTotal.total : ''}>
          <div className="blackjack__label">
            <span>{t('gamePlay.blackjack.dealer')}</span>
            {dealerKnown.length > 0 && (
              <span className="blackjack__total" data-total-text>
                {dealerTotal.text}
              </span>
            )}
          </div>
          <div className="blackjack__cards">
            {dealerCards.map((card, index) => (
              <PlayingCard key={`${index}-${card ?? 'hidden'}`} card={card} index={index} hiddenLabel={hiddenLabel} />
            ))}
          </div>
        </div>

        <div className={`blackjack__hands ${hands.length > 1 ? 'is-split' : ''}`}>
          {hands.map((hand, index) => {
            const result = view?.result?.hands[index];
            const isActive = isOpen && view?.phase === 'player' && hands.length > 1 && view.activeHand === index;
            const total = totalText(hand.cards, isFinished || hand.isDone);
            return (
              <div
                key={index}
                className={`blackjack__seat ${isActive ? 'is-active' : ''} ${result ? `is-${result.outcome}` : ''}`}
                data-hand={index}
                data-active={isActive ? 'true' : 'false'}
                data-total={total.total}
                data-outcome={result?.outcome ?? ''}
                data-hand-payout={result ? minorToAmount(BigInt(result.payoutMinor)) : ''}
                aria-current={isActive ? 'true' : undefined}
              >
                <div className="blackjack__label">
                  <span>
                    {hands.length > 1 ? t('gamePlay.blackjack.hand', { number: index + 1 }) : t('gamePlay.blackjack.player')}
                  </span>
                  <span className="blackjack__total" data-total-text>
                    {total.text}
                  </span>
                  <span className="blackjack__stake">{asMoney(hand.stakeMinor)}</span>
                  {hand.isDoubled && <span className="blackjack__tag">{t('gamePlay.blackjack.doubled')}</span>}
                </div>
                <div className="blackjack__cards">
                  {hand.cards.map((card, cardIndex) => (
                    <PlayingCard key={`${cardIndex}-${card}`} card={card} index={cardIndex} hiddenLabel={hiddenLabel} />
                  ))}
                </div>
                {result && (
                  <p className={`blackjack__outcome is-${result.outcome}`} data-hand-outcome={result.outcome}>
                    {t(`gamePlay.blackjack.outcome.${result.outcome}`)}
                    {BigInt(result.payoutMinor) > 0n &&
                      ` · ${t('gamePlay.blackjack.handPays', { amount: asMoney(result.payoutMinor) })}`}
                  </p>
                )}
              </div>
            );
          })}
        </div>
      </div>

      {line}

      {isOpen && (
        <div className="blackjack__actions" role="group" aria-label={t('gamePlay.blackjack.actions')}>
          {ACTIONS.filter((action) => allowed.includes(action)).map((action) => (
            <button
              key={action}
              type="button"
              className={`button ${action === 'hit' || action === 'insurance' ? 'button--primary' : 'button--ghost'} blackjack__action`}
              data-action={action}
              disabled={!canPlay}
              onClick={() => play(action)}
            >
              {action === 'insurance' && view
                ? t('gamePlay.blackjack.action.insurance', { amount: asMoney(BigInt(view.betMinor) / 2n) })
                : t(`gamePlay.blackjack.action.${action}`)}
            </button>
          ))}
        </div>
      )}

      {!isOpen && (
        <div className="table-game__controls">
          <label className="field">
            <span className="field__label">{t('gamePlay.stake')}</span>
            <input
              className="field__input"
              name="stake"
              inputMode="decimal"
              value={stake}
              onChange={(event) => setStake(event.target.value)}
            />
            <span className="table-game__limits">{t('gamePlay.blackjack.limits', { min: minBet, max: maxBet })}</span>
          </label>
          <button
            type="button"
            className="button button--primary table-game__action"
            data-action="deal"
            disabled={!canPlay}
            onClick={() => void start({ stake: stake.trim() })}
          >
            {t('gamePlay.blackjack.deal')}
          </button>
        </div>
      )}

      {round && view && (
        <p className="blackjack__stakes" data-total-stake={round.stake.amount}>
          {t('gamePlay.blackjack.totalStake', { amount: formatMoney(round.stake) })}
          {view.insuranceMinor !== null &&
            BigInt(view.insuranceMinor) > 0n &&
            ` · ${t('gamePlay.blackjack.insuranceTaken', { amount: asMoney(view.insuranceMinor) })}`}
        </p>
      )}

      {round && view && round.status === 'settled' && (
        <div
          className={`game-client__result ${overall === 'win' ? 'is-win' : overall === 'loss' ? 'is-loss' : ''}`}
          data-result={overall}
          data-payout={round.payout.amount}
          data-round={round.id}
        >
          <strong>
            {payoutMinor > 0n ? t('gamePlay.blackjack.paid', { amount: formatMoney(round.payout) }) : t('gamePlay.loss')}
          </strong>
          {view.result && BigInt(view.result.insurancePayoutMinor) > 0n && (
            <span> · {t('gamePlay.blackjack.insurancePaid', { amount: asMoney(view.result.insurancePayoutMinor) })}</span>
          )}
        </div>
      )}
    </section>
  );
}
