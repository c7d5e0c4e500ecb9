/**
 * The bet slip (issue 14 "Bet slip"): the chosen selections, the bet type and stake, what the
 * bet costs and may return, and Place bet (sportsbook.placeBet, one fresh request_id a try). A
 * panel beside the events on a desktop, a bottom sheet on a phone. A moved price is shown old
 * against new for the player to accept; other refusals show their text. A player holding an
 * active free bet or betting bonus money may stake from it (sportsbook.placeBet bonus_id): its
 * minimum odds are shown, and a slip below them is not sent.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { isApiError } from '#common/errors';
import type { TicketView } from '#common/contract/sportsbook-bets';
import type { BonusView } from '#common/contract/bonuses';
import { SLIP_MAX_SELECTIONS, betTypeText, type BetType } from '#common/sportsbook/bet-types';
import { formatOdds } from '#common/sportsbook/odds';
import { ODDS_CHANGE_ACCEPTANCES, ODDS_FORMATS } from '#common/sportsbook/types';
import { amountToMinor, formatMoney, money, minorToAmount } from '#common/money';
import { isAuthenticated } from '#common/api-contract';
import { browserApi } from '~/api/client';
import { useBalances } from '~/balance';
import { useDialogs } from '~/dialogs/dialog-context';
import { useI18n, type Translate } from '~/i18n';
import { Icon } from '~/components/icon';
import { useRootData } from '~/site-data';
import { betTypesFor, quote, selectionKey, showOdds, type BetSlipState } from '~/sportsbook/slip';
import { combinedOdds, freeBetStakePerLine, meetsMinOdds, useBettingBonuses } from '~/sportsbook/slip-bonus';

interface OddsMove {
  index: number;
  oldOdds: bigint;
  newOdds: bigint;
}

function betTypeLabel(t: Translate, betType: BetType, count: number): string {
  if (betType.kind === 'system') return t('sportsbook.betType.system', { size: betType.size, selections: count });
  return t(`sportsbook.betType.${betType.kind === 'named' ? betType.name : betType.kind}`);
}

/** The text of a refusal: the slip problem's, a limit's, or the error type's. */
function refusalText(t: Translate, error: unknown, currency: string, bonus?: BonusView): string {
  if (!isApiError(error)) return t('error.UnknownErrorException');
  if (error.type === 'UserNeedDepositException') return t('sportsbook.slip.needDeposit');
  const field = error.errorData?.field;
  // The bonus engine's refusals of a bonus stake (bonuses/betting.ts) name the field they refuse.
  if (bonus && field === 'odds') return t('sportsbook.slip.bonus.minOdds', { odds: (bonus.min_odds ?? 1).toFixed(2) });
  if (bonus && field === 'stake')
    return t(bonus.is_free_bet ? 'sportsbook.slip.bonus.wholeFreeBet' : 'sportsbook.slip.bonus.aboveBalance');
  if (bonus && field === 'bonus_id') return t('sportsbook.slip.bonus.unavailable');
  const code = error.errorData?.errorType;
  const limit = error.errorData?.limit;
  if (typeof code === 'string') {
    const key = `sportsbook.slip.problem.${code}`;
    const amount = typeof limit === 'string' ? formatMoney(money(BigInt(limit), currency)) : '';
    const text = t(key, { max: SLIP_MAX_SELECTIONS, limit: amount });
    if (text !== key) return text;
  }
  return t(`error.${error.type}`);
}

export function BetSlip({ slip }: { slip: BetSlipState }) {
  const { t, tc, locale, localePath } = useI18n();
  const root = useRootData();
  const { balances, refresh } = useBalances();
  const { open } = useDialogs();
  const [betTypeIndex, setBetTypeIndex] = useState(0);
  const [stake, setStake] = useState('');
  const [isBusy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [oddsMove, setOddsMove] = useState<OddsMove>();
  const [placed, setPlaced] = useState<TicketView>();
  const [isOpenOnPhone, setOpenOnPhone] = useState(false);
  const [bonusId, setBonusId] = useState<number>();
  const isSignedIn = isAuthenticated(root?.account);
  // Listed again after each placed bet: a free bet is used up by it.
  const bonuses = useBettingBonuses(isSignedIn, locale, placed?.id);
  const bonus = bonuses.find((item) => item.id === bonusId);
  const count = slip.selections.length;
  const betTypes = betTypesFor(count);
  const betType = betTypes[Math.min(betTypeIndex, betTypes.length - 1)] ?? { kind: 'single' };
  const currency = balances?.balance_main.currency ?? root?.account.balances?.balance_main.currency ?? 'EUR';
  const lineCount = quote(betType, slip.selections, '0').lines;
  // A free bet is staked whole: its stake per line follows from the lines, the player does not type it.
  const freeBetStake = bonus?.is_free_bet ? freeBetStakePerLine(bonus, lineCount) : undefined;
  const effectiveStake = bonus?.is_free_bet ? (freeBetStake ?? '') : stake;
  // A free bet pays only its winnings: the stake is not returned.
  const { lines, totalMinor, returnMinor } = quote(betType, slip.selections, effectiveStake, { freeBet: bonus?.is_free_bet });
  const odds = combinedOdds(slip.selections);
  const bonusProblem = bonusCheck(t, bonus, { odds, totalMinor, freeBetStake });

  async function place(event: FormEvent) {
    event.preventDefault();
    if (!isAuthenticated(root?.account)) {
      open('auth', { componentProps: { mode: 'sign_in' } });
      return;
    }
    setBusy(true);
    setProblem(undefined);
    setOddsMove(undefined);
    try {
      const ticket = await browserApi(locale).call('sportsbook.placeBet', {
        selections: JSON.stringify(
          slip.selections.map(({ event_id, market_key, outcome_id, odds }) => ({ event_id, market_key, outcome_id, odds })),
        ),
        bet_type: betTypeText(betType),
        stake: effectiveStake,
        odds_change: slip.oddsChange,
        bonus_id: bonus?.id,
        // A fresh key each try: the server answers a repeated key with the bet it already placed.
        request_id: crypto.randomUUID(),
      });
      slip.clear();
      setStake('');
      setBonusId(undefined);
      setPlaced(ticket);
      void refresh();
    } catch (error) {
      const data = isApiError(error) ? error.errorData : undefined;
      const index = Array.isArray(data?.selections) ? Number(data.selections[0]) : -1;
      if (data?.errorType === 'ODDS_CHANGED' && typeof data.old_odds === 'string' && typeof data.new_odds === 'string')
        setOddsMove({ index, oldOdds: BigInt(data.old_odds), newOdds: BigInt(data.new_odds) });
      else setProblem(refusalText(t, error, currency, bonus));
    } finally {
      setBusy(false);
    }
  }

  function acceptMove(move: OddsMove) {
    slip.setOdds(move.index, formatOdds(move.newOdds, 'decimal', 'en'));
    setOddsMove(undefined);
  }

  return (
    <aside
      className={`bet-slip${isOpenOnPhone ? ' is-open' : ''}`}
      data-bet-slip
      data-count={count}
      aria-label={t('sportsbook.slip.title')}
    >
      <button
        type="button"
        className="bet-slip__handle"
        aria-expanded={isOpenOnPhone}
        onClick={() => setOpenOnPhone(!isOpenOnPhone)}
      >
        <span>{t('sportsbook.slip.title')}</span>
        <span className="bet-slip__count">{count}</span>
      </button>
      <div className="bet-slip__body">
        {placed && (
          <div className="bet-slip__placed" role="status" data-placed-ticket={placed.id}>
            <Icon name="check" size={22} />
            <p>{t('sportsbook.slip.placed', { stake: formatMoney(placed.total_stake) })}</p>
            <Link to={localePath('/profile/bets')}>{t('sportsbook.slip.toBets')}</Link>
          </div>
        )}
        {count === 0 ? (
          <p className="bet-slip__empty">{t('sportsbook.slip.empty')}</p>
        ) : (
          <form onSubmit={(event) => void place(event)} noValidate>
            <ul className="bet-slip__selections">
              {slip.selections.map((selection, index) => (
                <li key={selectionKey(selection)} data-slip-selection={selectionKey(selection)}>
                  <div className="bet-slip__selection-text">
                    <strong>{selection.outcome_name}</strong>
                    <span>{selection.market_name}</span>
                    <span>{selection.event_name}</span>
                  </div>
                  <span className="bet-slip__odds">{showOdds(selection.odds, slip.oddsFormat, locale)}</span>
                  <button
                    type="button"
                    className="bet-slip__remove"
                    aria-label={t('sportsbook.slip.remove')}
                    onClick={() => slip.remove(selectionKey(selection))}
                  >
                    <Icon name="close" size={16} />
                  </button>
                  {oddsMove?.index === index && (
                    <div className="bet-slip__moved" role="alert" data-odds-changed>
                      <p>
                        {t('sportsbook.slip.oddsChanged', {
                          old: formatOdds(oddsMove.oldOdds, slip.oddsFormat, locale),
                          new: formatOdds(oddsMove.newOdds, slip.oddsFormat, locale),
                        })}
                      </p>
                      <button type="button" className="button button--ghost" onClick={() => acceptMove(oddsMove)}>
                        {t('sportsbook.slip.acceptOdds')}
                      </button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
            <label className="field">
              <span className="field__label">{t('sportsbook.slip.betType')}</span>
              <select
                className="field__input"
                name="bet_type"
                value={betTypes.indexOf(betType)}
                onChange={(e) => setBetTypeIndex(Number(e.target.value))}
              >
                {betTypes.map((type, index) => (
                  <option key={betTypeText(type)} value={index}>
                    {betTypeLabel(t, type, count)}
                  </option>
                ))}
              </select>
            </label>
            {bonuses.length > 0 && <BonusChoice bonuses={bonuses} chosen={bonus} onChoose={setBonusId} odds={odds} />}
            <label className="field">
              <span className="field__label">{t('sportsbook.slip.stake')}</span>
              <input
                className="field__input"
                name="stake"
                inputMode="decimal"
                autoComplete="off"
                value={effectiveStake}
                readOnly={bonus?.is_free_bet}
                aria-describedby={bonus?.is_free_bet ? 'slip-free-bet-stake' : undefined}
                onChange={(e) => setStake(e.target.value.replace(',', '.'))}
              />
              {bonus?.is_free_bet && (
                <span className="field__hint" id="slip-free-bet-stake">
                  {t('sportsbook.slip.bonus.freeBetStake', { amount: formatMoney(bonus.balance) })}
                </span>
              )}
            </label>
            <p className="bet-slip__lines" data-lines={lines}>
              {tc('sportsbook.slip.lineCount', lines)}
            </p>
            <dl className="bet-slip__quote">
              <dt>{t('sportsbook.slip.totalStake')}</dt>
              <dd data-total-stake={minorToAmount(totalMinor)}>{formatMoney(money(totalMinor, currency))}</dd>
              <dt>{t(bonus?.is_free_bet ? 'sportsbook.slip.freeBetReturn' : 'sportsbook.slip.potentialReturn')}</dt>
              <dd data-potential-return={minorToAmount(returnMinor)}>{formatMoney(money(returnMinor, currency))}</dd>
            </dl>
            {bonusProblem && (
              <p className="field__error" role="alert" data-slip-bonus-problem>
                {bonusProblem}
              </p>
            )}
            {problem && (
              <p className="field__error" role="alert" data-slip-problem>
                {problem}
              </p>
            )}
            <button
              type="submit"
              className="button button--primary bet-slip__place"
              data-action="place-bet"
              disabled={isBusy || totalMinor <= 0n || bonusProblem !== undefined}
            >
              {t('sportsbook.slip.place')}
            </button>
          </form>
        )}
        <SlipSettings slip={slip} />
      </div>
    </aside>
  );
}

/** Why the chosen bonus cannot fund this slip as it stands, before the server is asked. */
function bonusCheck(
  t: Translate,
  bonus: BonusView | undefined,
  slip: { odds: number; totalMinor: bigint; freeBetStake: string | null | undefined },
): string | undefined {
  if (!bonus) return undefined;
  if (bonus.is_free_bet && slip.freeBetStake === null) return t('sportsbook.slip.bonus.uneven');
  if (bonus.is_free_bet && !meetsMinOdds(bonus, slip.odds))
    return t('sportsbook.slip.bonus.minOdds', { odds: (bonus.min_odds ?? 1).toFixed(2) });
  if (!bonus.is_free_bet && slip.totalMinor > amountToMinor(bonus.balance.amount)) return t('sportsbook.slip.bonus.aboveBalance');
  return undefined;
}

/** Main balance or one of the player's betting bonuses, each with its money and minimum odds. */
function BonusChoice({
  bonuses,
  chosen,
  onChoose,
  odds,
}: {
  bonuses: readonly BonusView[];
  chosen: BonusView | undefined;
  onChoose: (id: number | undefined) => void;
  odds: number;
}) {
  const { t } = useI18n();
  const label = (bonus: BonusView) =>
    t(bonus.is_free_bet ? 'sportsbook.slip.bonus.freeBet' : 'sportsbook.slip.bonus.money', {
      amount: formatMoney(bonus.balance),
    });
  return (
    <div className="bet-slip__bonus" data-slip-bonus={chosen?.id ?? 'main'}>
      <label className="field">
        <span className="field__label">{t('sportsbook.slip.bonus.payWith')}</span>
        <select
          className="field__input"
          name="bonus_id"
          value={chosen?.id ?? ''}
          onChange={(e) => onChoose(e.target.value === '' ? undefined : Number(e.target.value))}
        >
          <option value="">{t('sportsbook.slip.bonus.main')}</option>
          {bonuses.map((bonus) => (
            <option key={bonus.id} value={bonus.id}>
              {label(bonus)}
            </option>
          ))}
        </select>
      </label>
      {chosen && chosen.min_odds !== null && (
        <p
          className={`bet-slip__min-odds${meetsMinOdds(chosen, odds) ? '' : ' is-below'}`}
          data-min-odds={chosen.min_odds}
          data-meets-min-odds={meetsMinOdds(chosen, odds)}
        >
          {t(chosen.is_free_bet ? 'sportsbook.slip.bonus.minOddsFreeBet' : 'sportsbook.slip.bonus.minOddsMoney', {
            odds: chosen.min_odds.toFixed(2),
            current: odds.toFixed(2),
          })}
        </p>
      )}
    </div>
  );
}

/** The odds format and what to do when a price moves: the player's own, kept in localStorage. */
function SlipSettings({ slip }: { slip: BetSlipState }) {
  const { t } = useI18n();
  return (
    <div className="bet-slip__settings">
      <label className="field">
        <span className="field__label">{t('sportsbook.slip.oddsFormat')}</span>
        <select
          className="field__input"
          name="odds_format"
          value={slip.oddsFormat}
          onChange={(e) => slip.setOddsFormat(e.target.value as typeof slip.oddsFormat)}
        >
          {ODDS_FORMATS.map((format) => (
            <option key={format} value={format}>
              {t(`sportsbook.oddsFormat.${format}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">{t('sportsbook.slip.oddsChange')}</span>
        <select
          className="field__input"
          name="odds_change"
          value={slip.oddsChange}
          onChange={(e) => slip.setOddsChange(e.target.value as typeof slip.oddsChange)}
        >
          {ODDS_CHANGE_ACCEPTANCES.map((choice) => (
            <option key={choice} value={choice}>
              {t(`sportsbook.oddsChange.${choice}`)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
