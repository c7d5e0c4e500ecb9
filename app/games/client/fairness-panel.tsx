/**
 * The fairness panel (architecture §6): the hash of the server seed before play, the client seed
 * the player may set, rotation that reveals the seed, and the last rounds each verified in the
 * browser by replaying the engine on the revealed seeds.
 */
import { Fragment, useEffect, useState } from 'react';
import { formatMoney } from '#common/money';
import { useI18n } from '~/i18n';
import { RoundRecall } from './round-recall';
import type { Api, RoundView, SeedsView } from './shared';

export function FairnessPanel({
  seeds,
  rounds,
  api,
  onSeeds,
  onError,
  reloadRounds,
}: {
  seeds: SeedsView | null;
  rounds: RoundView[];
  api: Api;
  onSeeds: (seeds: SeedsView) => void;
  onError: (error: unknown) => void;
  reloadRounds: () => Promise<void>;
}) {
  const { t } = useI18n();
  const [clientSeed, setClientSeed] = useState('');
  const [previous, setPrevious] = useState<{ server_seed: string; server_seed_hash: string } | null>(null);
  const [checks, setChecks] = useState<Record<string, 'match' | 'mismatch' | 'unrevealed'>>({});
  const [isBusy, setBusy] = useState(false);
  const [recalled, setRecalled] = useState<string | null>(null);

  useEffect(() => {
    if (seeds) setClientSeed(seeds.client_seed);
  }, [seeds?.client_seed]); // eslint-disable-line react-hooks/exhaustive-deps

  async function saveClientSeed() {
    setBusy(true);
    onError(null);
    try {
      onSeeds(await api.call('games.setClientSeed', { client_seed: clientSeed }));
    } catch (caught) {
      onError(caught);
    }
    setBusy(false);
  }

  async function rotate() {
    setBusy(true);
    onError(null);
    try {
      const answer = await api.call('games.rotateSeeds');
      setPrevious(answer.previous);
      onSeeds({ server_seed_hash: answer.server_seed_hash, client_seed: answer.client_seed, nonce: answer.nonce });
      await reloadRounds();
    } catch (caught) {
      onError(caught);
    }
    setBusy(false);
  }

  async function verify(round: RoundView) {
    onError(null);
    try {
      const answer = await api.call('games.verifyRound', {
        round_id: round.id,
      });
      // Every engine's replay is needed only when a player checks a round: loaded then, not with the game (issue 12, initial JS).
      const { verifyRoundInBrowser } = await import('~/games/verify-round');
      const state =
        !answer.is_revealed || !answer.server_seed
          ? 'unrevealed'
          : verifyRoundInBrowser(round, answer.server_seed).isMatch
            ? 'match'
            : 'mismatch';
      setChecks((current) => ({ ...current, [round.id]: state }));
    } catch (caught) {
      onError(caught);
    }
  }

  return (
    <section className="game-client__panel fairness" data-fairness>
      <h2>{t('gamePlay.fair.title')}</h2>
      <dl className="fairness__seeds">
        <dt>{t('gamePlay.fair.serverSeedHash')}</dt>
        <dd data-server-seed-hash>{seeds?.server_seed_hash ?? <PendingHash label={t('gamePlay.fair.loading')} />}</dd>
        <dt>{t('gamePlay.fair.nonce')}</dt>
        <dd data-nonce>{seeds?.nonce ?? '…'}</dd>
      </dl>
      <label className="field">
        <span className="field__label">{t('gamePlay.fair.clientSeed')}</span>
        <input
          className="field__input"
          name="client_seed"
          value={clientSeed}
          maxLength={64}
          onChange={(event) => setClientSeed(event.target.value)}
        />
      </label>
      <div className="fairness__actions">
        <button
          type="button"
          className="button button--ghost"
          data-action="set-client-seed"
          disabled={isBusy || !seeds}
          onClick={() => void saveClientSeed()}
        >
          {t('gamePlay.fair.saveClientSeed')}
        </button>
        <button
          type="button"
          className="button button--ghost"
          data-action="rotate"
          disabled={isBusy || !seeds}
          onClick={() => void rotate()}
        >
          {t('gamePlay.fair.rotate')}
        </button>
      </div>
      {previous && (
        <p className="fairness__previous" data-previous-seed={previous.server_seed}>
          {t('gamePlay.fair.revealed', { seed: previous.server_seed, hash: previous.server_seed_hash })}
        </p>
      )}
      <h3>{t('gamePlay.fair.lastRounds')}</h3>
      {rounds.length === 0 ? (
        <p>{t('gamePlay.fair.noRounds')}</p>
      ) : (
        <table className="fairness__rounds">
          <thead>
            <tr>
              <th>{t('gamePlay.fair.round')}</th>
              <th>{t('gamePlay.stake')}</th>
              <th>{t('gamePlay.payout')}</th>
              <th>{t('gamePlay.fair.nonce')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rounds.map((round) => (
              <Fragment key={round.id}>
                <tr data-round-row={round.id}>
                  <td>#{round.id}</td>
                  <td>{formatMoney(round.stake)}</td>
                  <td>{formatMoney(round.payout)}</td>
                  <td>{round.nonce}</td>
                  <td>
                    {/* An open mines or blackjack round has no outcome to verify yet. */}
                    {round.status === 'open' ? (
                      <span className="fairness__open" data-round-open>
                        {t('gamePlay.fair.inPlay')}
                      </span>
                    ) : (
                      <button
                        type="button"
                        className="button button--ghost"
                        data-action="verify"
                        onClick={() => void verify(round)}
                      >
                        {t('gamePlay.fair.verify')}
                      </button>
                    )}{' '}
                    {checks[round.id] && (
                      <span className={`fairness__check is-${checks[round.id]}`} data-verified={checks[round.id]}>
                        {t(`gamePlay.fair.${checks[round.id]}`)}
                      </span>
                    )}{' '}
                    {round.status !== 'open' && (
                      <button
                        type="button"
                        className="button button--ghost"
                        data-action="recall"
                        aria-expanded={recalled === round.id}
                        onClick={() => setRecalled(recalled === round.id ? null : round.id)}
                      >
                        {t(recalled === round.id ? 'gamePlay.recall.hide' : 'gamePlay.recall.show')}
                      </button>
                    )}
                  </td>
                </tr>
                {recalled === round.id && (
                  <tr className="fairness__recall">
                    <td colSpan={5}>
                      <RoundRecall round={round} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * Where the seed hash will stand, as long as it will be (64 monospace characters that wrap as the
 * hash does), so the panel does not grow when it arrives (issue 12: layout shift). Its letters are
 * not hex digits, so nothing takes it for a hash.
 */
function PendingHash({ label }: { label: string }) {
  return (
    <>
      <span className="fairness__pending" aria-hidden="true">
        {'x'.repeat(64)}
      </span>
      <span className="visually-hidden">{label}</span>
    </>
  );
}
