/**
 * The bonus engine (issue 13): grants from a site's templates, the player's steps (activate,
 * deactivate, remove), the operator's cancel, forfeiture at withdrawal, and the expiry job. The
 * rules are in rules.ts, the steps with their money in lifecycle.ts; this file composes them with
 * the site's programme and answers the views.
 */
import { and, asc, count, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { BONUSES_PAGE_MAX, type BonusPage, type BonusView } from '#common/contract/bonuses';
import { isApiError } from '#common/errors';
import { invalidParameter } from '#common/parameter-errors';
import type { Locale } from '#common/locale';
import type { Database } from '../../db/client';
import { inTransaction, type Executor } from '../../db/retry';
import type { WalletService } from '../wallet';
import {
  activateBonus,
  bonusError,
  deactivateBonus,
  endBonus,
  grantBonus,
  removeOwnBonus,
  type LifecycleDeps,
} from './lifecycle';
import { createBettingBonuses } from './betting';
import { createFreespinWins } from './freespin-wins';
import { createBonusFunding } from './funding';
import { bonusProgramme, type BonusProgramme } from './programme';
import { BonusRuleError, grantAmountMinor } from './rules';
import { bonuses, type BonusRow, type BonusSource, type BonusStatus } from './tables';
import { bonusView, templateTexts } from './views';

export interface BonusServiceDeps {
  db: Database;
  wallet: WalletService;
  siteSettings: (siteId: string) => Promise<Record<string, unknown> | undefined>;
  /** The site's settings in a bet's transaction (funding.ts). */
  siteSettingsIn: (tx: Executor, siteId: string) => Promise<Record<string, unknown> | undefined>;
  now?: () => Date;
}

export interface GrantRequest {
  siteId: string;
  userId: number;
  currency: string;
  templateId: string;
  source: BonusSource;
  sourceRef: string;
  /** The qualifying deposit of a deposit-match template. */
  depositMinor?: bigint;
}

/** A grant the site's programme cannot make: no such template, another currency, a deposit too small. */
export class BonusGrantError extends Error {
  constructor(
    readonly code: 'UNKNOWN_TEMPLATE' | BonusRuleError['code'],
    message: string,
  ) {
    super(message);
  }
}

const EXPIRY_BATCH = 200;
const EXPIRY_MAX_BATCHES = 25;

export function createBonusService(deps: BonusServiceDeps) {
  const { db, wallet } = deps;
  const now = deps.now ?? (() => new Date());
  const lifecycle: LifecycleDeps = { wallet, now };
  const programmeOf = async (siteId: string): Promise<BonusProgramme> => bonusProgramme(await deps.siteSettings(siteId));

  /**
   * Grants a template's bonus as available. Inside a caller's transaction pass the programme read
   * before it: on PGlite's one connection a read outside the open transaction would wait for it.
   */
  async function grant(
    request: GrantRequest,
    executor: Executor = db,
    preloaded?: BonusProgramme,
  ): Promise<{ row: BonusRow; isNew: boolean }> {
    const programme = preloaded ?? (await programmeOf(request.siteId));
    const template = programme.templates.get(request.templateId);
    if (!template) throw new BonusGrantError('UNKNOWN_TEMPLATE', `no bonus template ${request.templateId} on ${request.siteId}`);
    let amountMinor: bigint;
    try {
      amountMinor = grantAmountMinor(template, request.currency, request.depositMinor ?? 0n);
    } catch (error) {
      if (error instanceof BonusRuleError) throw new BonusGrantError(error.code, error.message);
      throw error;
    }
    return grantBonus(executor, lifecycle, { ...request, template, jurisdiction: programme.jurisdiction, amountMinor });
  }

  /**
   * Grants and activates at once: a bonus the player chose (a deposit offer, a promo code, an
   * opt-in promotion). When it cannot be active now (isolation allows one casino bonus, the
   * jurisdiction forbids mixing), it stays available for the player to activate later.
   */
  async function grantAndActivate(
    request: GrantRequest,
    executor: Executor = db,
    preloaded?: BonusProgramme,
  ): Promise<{ row: BonusRow; isNew: boolean }> {
    const programme = preloaded ?? (await programmeOf(request.siteId));
    return inTransaction(executor, async (tx) => {
      const granted = await grant(request, tx, programme);
      if (!granted.isNew) return granted;
      try {
        const owner = { siteId: request.siteId, userId: request.userId, bonusId: granted.row.id };
        return { row: await activateBonus(tx, lifecycle, owner, programme), isNew: true };
      } catch (error) {
        // Only the rules' refusals keep it available; they are decided before anything is written.
        if (isApiError(error) && error.type === 'InvalidParameterException') return granted;
        throw error;
      }
    });
  }

  async function activate(
    siteId: string,
    userId: number,
    bonusId: number,
    type: BonusRow['type'],
    locale: Locale,
  ): Promise<BonusView> {
    const programme = await programmeOf(siteId);
    const row = await activateBonus(db, lifecycle, { siteId, userId, bonusId, type }, programme);
    return bonusView(row, templateTexts(row.terms, locale));
  }

  async function deactivate(siteId: string, userId: number, bonusId: number, locale: Locale): Promise<BonusView> {
    const row = await deactivateBonus(db, lifecycle, { siteId, userId, bonusId, type: 'casino' });
    return bonusView(row, templateTexts(row.terms, locale));
  }

  async function remove(siteId: string, userId: number, bonusId: number, type: BonusRow['type']): Promise<1> {
    await removeOwnBonus(db, lifecycle, { siteId, userId, bonusId, type });
    return 1;
  }

  async function list(
    siteId: string,
    userId: number,
    query: { type: BonusRow['type']; statuses: BonusStatus[]; offset: number; count: number; locale: Locale },
  ): Promise<BonusPage> {
    const filter = and(
      eq(bonuses.siteId, siteId),
      eq(bonuses.userId, userId),
      eq(bonuses.type, query.type),
      query.statuses.length > 0 ? inArray(bonuses.status, query.statuses) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db.select().from(bonuses).where(filter).orderBy(desc(bonuses.id)).offset(query.offset).limit(query.count),
      db.select({ n: count() }).from(bonuses).where(filter),
    ]);
    return { items: rows.map((row) => bonusView(row, templateTexts(row.terms, query.locale))), total: total?.n ?? 0 };
  }

  /**
   * Forfeits the player's active bonuses of a type (a withdrawal the player confirmed burning
   * them for, an operator's decision): their bonus money goes back to the house, real money stays.
   */
  async function forfeitActive(siteId: string, userId: number, by: string, executor: Executor = db): Promise<number> {
    return inTransaction(executor, async (tx) => {
      const active = await tx
        .select()
        .from(bonuses)
        .where(and(eq(bonuses.siteId, siteId), eq(bonuses.userId, userId), eq(bonuses.status, 'active')))
        .orderBy(asc(bonuses.id))
        .for('update');
      for (const row of active) await endBonus(tx, lifecycle, row, { status: 'forfeited', by });
      return active.length;
    });
  }

  /**
   * The sign-up bonus of the site's programme, granted available to a new player (any way of
   * signing up); once per player whatever calls it again. None when the site gives none or not in
   * the player's currency.
   */
  async function grantRegistrationBonus(player: {
    siteId: string;
    userId: number;
    currency: string;
  }): Promise<BonusRow | undefined> {
    const programme = await programmeOf(player.siteId);
    if (!programme.registrationTemplateId) return undefined;
    try {
      const request = {
        ...player,
        templateId: programme.registrationTemplateId,
        source: 'registration' as const,
        sourceRef: 'sign-up',
      };
      return (await grant(request, db, programme)).row;
    } catch (error) {
      if (error instanceof BonusGrantError) return undefined;
      throw error;
    }
  }

  /** The ids of the player's active bonuses (a withdrawal asks to burn them first). */
  async function activeBonusIds(siteId: string, userId: number, executor: Executor = db): Promise<number[]> {
    const rows = await executor
      .select({ id: bonuses.id })
      .from(bonuses)
      .where(and(eq(bonuses.siteId, siteId), eq(bonuses.userId, userId), eq(bonuses.status, 'active')))
      .orderBy(asc(bonuses.id));
    return rows.map((row) => row.id);
  }

  /**
   * The operator grants a template to a player (back office): keyed by the operator's grant key,
   * so resending the same request grants once; recorded in the audit log under their name.
   */
  async function grantByOperator(
    request: Omit<GrantRequest, 'source' | 'sourceRef'> & {
      operator: string;
      grantKey: string;
      activate: boolean;
      reason: string;
    },
  ): Promise<{ row: BonusRow; isNew: boolean }> {
    const programme = await programmeOf(request.siteId);
    const grantRequest = { ...request, source: 'operator' as const, sourceRef: `${request.operator}:${request.grantKey}` };
    return inTransaction(db, async (tx) => {
      const granted = request.activate
        ? await grantAndActivate(grantRequest, tx, programme)
        : await grant(grantRequest, tx, programme);
      if (!granted.isNew && granted.row.templateId !== request.templateId) {
        throw invalidParameter('grant_key', 'This grant key was used for another grant');
      }
      if (granted.isNew) await auditOperator(tx, granted.row, request.operator, 'bonus.grant', request.reason);
      return granted;
    });
  }

  /** The operator cancels a bonus (back office): available ones are removed, active ones forfeited. */
  async function cancelByOperator(siteId: string, bonusId: number, operator: string, reason: string): Promise<BonusRow> {
    return inTransaction(db, async (tx) => {
      const [row] = await tx.select().from(bonuses).where(eq(bonuses.id, bonusId)).for('update');
      if (!row || row.siteId !== siteId) throw bonusError('NOT_FOUND');
      if (row.status !== 'available' && row.status !== 'active') throw bonusError('NOT_AVAILABLE');
      const ended = await endBonus(tx, lifecycle, row, {
        status: row.status === 'active' ? 'forfeited' : 'removed',
        by: `operator:${operator}`,
      });
      await auditOperator(tx, ended, operator, 'bonus.cancel', reason);
      return ended;
    });
  }

  function auditOperator(tx: Executor, row: BonusRow, operator: string, action: string, reason: string) {
    const payload = { bonusId: row.id, templateId: row.templateId, status: row.status, amountMinor: row.amountMinor.toString() };
    return wallet.recordAction(
      { stream: `player:${row.userId}`, actor: `operator:${operator}`, action, subject: `bonus:${row.id}`, reason, payload },
      tx,
    );
  }

  /** Every bonus of a player, both kinds, newest first (back office). */
  async function listForOperator(siteId: string, userId: number): Promise<BonusView[]> {
    const rows = await db
      .select()
      .from(bonuses)
      .where(and(eq(bonuses.siteId, siteId), eq(bonuses.userId, userId)))
      .orderBy(desc(bonuses.id))
      .limit(BONUSES_PAGE_MAX);
    return rows.map((row) => bonusView(row, templateTexts(row.terms, 'en')));
  }

  /**
   * The expiry job: bonuses past their claim window (available) or wagering window (active)
   * expire, each in its own transaction that re-reads the status under the row lock, so a second
   * run, or a run on another process, finds it ended and moves nothing.
   */
  async function expireDue(): Promise<{ expired: number }> {
    const moment = now();
    let expired = 0;
    // Batches until none is left (bounded, so one job never runs unbounded; the next run goes on).
    for (let batch = 0; batch < EXPIRY_MAX_BATCHES; batch++) {
      const due = await dueForExpiry(moment);
      for (const { id } of due) if (await expireOne(id, moment)) expired++;
      if (due.length < EXPIRY_BATCH) break;
    }
    return { expired };
  }

  function dueForExpiry(moment: Date) {
    return db
      .select({ id: bonuses.id })
      .from(bonuses)
      .where(
        or(
          and(eq(bonuses.status, 'available'), lte(bonuses.claimExpiresAt, moment)),
          and(eq(bonuses.status, 'active'), lte(bonuses.wageringExpiresAt, moment)),
        ),
      )
      .orderBy(asc(bonuses.id))
      .limit(EXPIRY_BATCH);
  }

  async function expireOne(id: number, moment: Date): Promise<boolean> {
    return inTransaction(db, async (tx) => {
      const [row] = await tx.select().from(bonuses).where(eq(bonuses.id, id)).for('update');
      const isDue =
        (row?.status === 'available' && row.claimExpiresAt <= moment) ||
        (row?.status === 'active' && row.wageringExpiresAt !== null && row.wageringExpiresAt <= moment);
      if (!row || !isDue) return false;
      await endBonus(tx, lifecycle, row, { status: 'expired', by: null });
      return true;
    });
  }

  /**
   * Where a player's bonus money disagrees with their bonuses (decision 0008): the bonus account
   * must hold the active casino bonuses' balances, the betting bonus account the active betting
   * bonuses'. Empty when sound; read by tests, the bonus bench and an operator's check.
   */
  async function balanceMismatches(siteId: string, userId: number, currency: string): Promise<string[]> {
    const [balances, sums] = await Promise.all([
      wallet.balances(siteId, userId, currency),
      db
        .select({ type: bonuses.type, total: sql<string>`sum(${bonuses.balanceMinor})::text` })
        .from(bonuses)
        .where(
          and(
            eq(bonuses.siteId, siteId),
            eq(bonuses.userId, userId),
            eq(bonuses.currency, currency),
            eq(bonuses.status, 'active'),
          ),
        )
        .groupBy(bonuses.type),
    ]);
    const sumOf = (type: BonusRow['type']) => BigInt(sums.find((row) => row.type === type)?.total ?? '0');
    const pairs = [
      ['bonus', balances.bonus, sumOf('casino')],
      ['betting_bonus', balances.betting_bonus, sumOf('betting')],
    ] as const;
    return pairs
      .filter(([, account, active]) => account !== active)
      .map(([name, account, active]) => `player ${userId}: ${name} account ${account}, active bonuses ${active}`);
  }

  return {
    balanceMismatches,
    /** The round intake's funding: casino stakes draw on the wagered bonus, payouts and wagering go back to it. */
    funding: createBonusFunding({ wallet, now, siteSettingsIn: deps.siteSettingsIn }),
    /** A winning free spin of a pack with wagering: its win joins the pack's bonus, in the spin's transaction. */
    creditFreespinWin: createFreespinWins({ wallet, lifecycle, siteSettingsIn: deps.siteSettingsIn }).credit,
    /** For the sportsbook: a bet staked from a betting bonus (free bet or bonus money) and its settlement, in the bet's transaction. */
    betting: createBettingBonuses({ wallet, lifecycle }),
    grant,
    grantAndActivate,
    activeBonusIds,
    activate,
    deactivate,
    remove,
    list,
    forfeitActive,
    grantByOperator,
    grantRegistrationBonus,
    cancelByOperator,
    listForOperator,
    expireDue,
    programmeOf,
  };
}

export type BonusService = ReturnType<typeof createBonusService>;
