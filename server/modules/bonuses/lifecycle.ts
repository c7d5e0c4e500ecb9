/**
 * A bonus's life (issue 13): granted available → active → converted, or expired / forfeited /
 * removed. Each step locks the bonus row first (then the wallet locks its accounts, in id order,
 * as every transfer does), checks the status it expects, moves the money with the bonus id in
 * the idempotency key and writes the new status, all in one transaction: two steps racing on one
 * bonus run one after the other, and the second finds the status the first left.
 */
import { and, eq } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import { inTransaction, type Executor } from '../../db/retry';
import { house, player, type Leg, type PlayerAccountType, type TransferInput, type WalletService } from '../wallet';
import {
  conversionOf as conversionShares,
  wageringRequirementMinor,
  windowEnd,
  type BonusTemplate,
  type Jurisdiction,
} from './rules';
import { bonuses, type BonusRow, type BonusSource, type BonusStatus } from './tables';

export interface LifecycleDeps {
  wallet: WalletService;
  now: () => Date;
}

/** The codes of the bonus error table (translations bonus.error.{CODE}), as error_data.bonus_id. */
export type BonusErrorCode =
  'NOT_FOUND' | 'NOT_AVAILABLE' | 'NOT_ACTIVE' | 'EXPIRED' | 'ONE_ACTIVE_ONLY' | 'MIXED_FORBIDDEN' | 'ALREADY_WAGERING';

export function bonusError(code: BonusErrorCode): ApiError {
  return new ApiError('InvalidParameterException', `Invalid parameter: bonus_id (${code})`, {
    field: 'bonus_id',
    bonus_id: [code],
  });
}

const accountOf = (row: Pick<BonusRow, 'type'>): PlayerAccountType => (row.type === 'casino' ? 'bonus' : 'betting_bonus');

/** Whose bonus a player's step acts on; `type` when the call is for one kind (bonuses.* casino, BettingBonuses.* betting). */
export interface BonusOwner {
  siteId: string;
  userId: number;
  bonusId: number;
  type?: BonusRow['type'];
}

/**
 * Reads and locks one of the player's bonuses. Another player's answers AccessDenied and says
 * nothing of it; one of the other kind is not found through this call.
 */
export async function lockOwnBonus(tx: Executor, owner: BonusOwner): Promise<BonusRow> {
  const [row] = await tx.select().from(bonuses).where(eq(bonuses.id, owner.bonusId)).for('update');
  if (!row || row.siteId !== owner.siteId) throw bonusError('NOT_FOUND');
  if (row.userId !== owner.userId) throw new ApiError('AccessDeniedException', 'Access denied');
  if (owner.type && row.type !== owner.type) throw bonusError('NOT_FOUND');
  return row;
}

export interface GrantInput {
  siteId: string;
  userId: number;
  currency: string;
  template: BonusTemplate;
  jurisdiction: Jurisdiction;
  amountMinor: bigint;
  depositMinor?: bigint;
  source: BonusSource;
  sourceRef: string;
}

/**
 * Grants a bonus as available (no money moves until it is activated). The grant key (site,
 * player, source, source ref) makes a second grant of the same thing return the first bonus.
 */
export async function grantBonus(
  executor: Executor,
  deps: LifecycleDeps,
  input: GrantInput,
): Promise<{ row: BonusRow; isNew: boolean }> {
  const depositMinor = input.depositMinor ?? 0n;
  const [created] = await executor
    .insert(bonuses)
    .values({
      siteId: input.siteId,
      userId: input.userId,
      type: input.template.type,
      status: 'available',
      templateId: input.template.id,
      terms: input.template,
      source: input.source,
      sourceRef: input.sourceRef,
      currency: input.currency,
      amountMinor: input.amountMinor,
      depositMinor,
      wageringRequiredMinor: wageringRequirementMinor(input.template, input.jurisdiction, input.amountMinor, depositMinor),
      claimExpiresAt: windowEnd(deps.now(), input.template.claim_hours),
    })
    .onConflictDoNothing()
    .returning();
  if (created) return { row: created, isNew: true };
  const [existing] = await executor
    .select()
    .from(bonuses)
    .where(
      and(
        eq(bonuses.siteId, input.siteId),
        eq(bonuses.userId, input.userId),
        eq(bonuses.source, input.source),
        eq(bonuses.sourceRef, input.sourceRef),
      ),
    );
  if (!existing) throw new Error('bonus grant neither inserted nor found');
  return { row: existing, isNew: false };
}

/** The player's active bonuses of every kind: the activation rules compare the new one with them. */
function activeBonusesOf(tx: Executor, row: BonusRow): Promise<BonusRow[]> {
  return tx
    .select()
    .from(bonuses)
    .where(and(eq(bonuses.siteId, row.siteId), eq(bonuses.userId, row.userId), eq(bonuses.status, 'active')));
}

export interface ActivationRules {
  /** Only one casino bonus may be active (is_bonus_isolation_enabled). */
  isolation: boolean;
  jurisdiction: Jurisdiction;
}

/**
 * available → active: the grant moves the bonus amount from the house's bonus cost to the
 * player's bonus (or betting bonus) balance, and the wagering window opens. A betting bonus is
 * one at a time always; a casino bonus is one at a time under isolation.
 */
export async function activateBonus(
  executor: Executor,
  deps: LifecycleDeps,
  owner: BonusOwner,
  rules: ActivationRules,
): Promise<BonusRow> {
  return inTransaction(executor, async (tx) => {
    const row = await lockOwnBonus(tx, owner);
    if (row.status !== 'available') throw bonusError(row.status === 'expired' ? 'EXPIRED' : 'NOT_AVAILABLE');
    if (row.claimExpiresAt <= deps.now()) throw bonusError('EXPIRED');
    await refuseConflictingActive(tx, row, rules);
    const activation = row.activations + 1;
    const legs = [leg('bonus_cost', row, -row.amountMinor), leg(accountOf(row), row, row.amountMinor)];
    await deps.wallet.transfer(bonusTransfer(row, `grant:${activation}`, legs, `player:${row.userId}`), tx);
    const now = deps.now();
    return updateBonus(tx, row.id, {
      status: 'active',
      activations: activation,
      balanceMinor: row.amountMinor,
      activatedAt: now,
      wageringExpiresAt: windowEnd(now, row.terms.wagering_hours),
    });
  });
}

async function refuseConflictingActive(tx: Executor, row: BonusRow, rules: ActivationRules): Promise<void> {
  const active = await activeBonusesOf(tx, row);
  if (rules.jurisdiction.forbid_mixed_bonuses && active.some((other) => other.type !== row.type))
    throw bonusError('MIXED_FORBIDDEN');
  const sameType = active.filter((other) => other.type === row.type);
  if (sameType.length > 0 && (row.type === 'betting' || rules.isolation)) throw bonusError('ONE_ACTIVE_ONLY');
}

/**
 * active → available, before any wagering: the player changes their mind about a bonus they
 * have not played with. The grant goes back to the house; the claim window is unchanged.
 */
export async function deactivateBonus(executor: Executor, deps: LifecycleDeps, owner: BonusOwner) {
  return inTransaction(executor, async (tx) => {
    const row = await lockOwnBonus(tx, owner);
    if (row.status !== 'active') throw bonusError('NOT_ACTIVE');
    if (row.wageredMinor > 0n || row.balanceMinor !== row.amountMinor) throw bonusError('ALREADY_WAGERING');
    const legs = [leg(accountOf(row), row, -row.balanceMinor), leg('bonus_cost', row, row.balanceMinor)];
    await deps.wallet.transfer(bonusTransfer(row, `deactivate:${row.activations}`, legs, `player:${row.userId}`), tx);
    return updateBonus(tx, row.id, { status: 'available', balanceMinor: 0n, activatedAt: null, wageringExpiresAt: null });
  });
}

/**
 * Ends a bonus for good: an available one is removed (nothing moved), an active one is forfeited
 * (its remaining balance goes back to the house), an expired wagering window expires it. Real
 * money is never touched.
 */
export async function endBonus(
  tx: Executor,
  deps: LifecycleDeps,
  row: BonusRow,
  ending: { status: Extract<BonusStatus, 'removed' | 'forfeited' | 'expired'>; by: string | null },
): Promise<BonusRow> {
  if (row.status === 'active' && row.balanceMinor > 0n) {
    const legs = [leg(accountOf(row), row, -row.balanceMinor), leg('bonus_cost', row, row.balanceMinor)];
    await deps.wallet.transfer(bonusTransfer(row, ending.status, legs, ending.by ?? 'system'), tx);
  }
  return updateBonus(tx, row.id, { status: ending.status, balanceMinor: 0n, endedAt: deps.now(), endedBy: ending.by });
}

/** The player removes one of their bonuses (bonuses.remove, BettingBonuses.remove). */
export async function removeOwnBonus(executor: Executor, deps: LifecycleDeps, owner: BonusOwner) {
  return inTransaction(executor, async (tx) => {
    const row = await lockOwnBonus(tx, owner);
    if (row.status !== 'available' && row.status !== 'active') throw bonusError('NOT_AVAILABLE');
    const status = row.status === 'active' ? 'forfeited' : 'removed';
    return endBonus(tx, deps, row, { status, by: `player:${owner.userId}` });
  });
}

/**
 * Wagering complete with `balanceMinor` on the bonus: the conversion's transfer (none when the
 * balance is empty) and the bonus's new columns. The balance becomes real money up to the
 * conversion cap; the rest goes back to the house. A bet that completes a bonus moves this
 * transfer in its own batch (funding.ts).
 */
export function conversionOf(
  row: BonusRow,
  balanceMinor: bigint,
  at: Date,
): { transfer: TransferInput | undefined; columns: Partial<typeof bonuses.$inferInsert> } {
  const { toMain, toHouse } = conversionShares(row.terms, row.currency, balanceMinor);
  const legs: Leg[] = [];
  if (balanceMinor > 0n) legs.push(leg(accountOf(row), row, -balanceMinor));
  if (toMain > 0n) legs.push(leg('main', row, toMain));
  if (toHouse > 0n) legs.push(leg('bonus_cost', row, toHouse));
  return {
    transfer: legs.length >= 2 ? bonusTransfer(row, 'convert', legs, 'system') : undefined,
    columns: { status: 'converted', balanceMinor: 0n, convertedMinor: toMain, endedAt: at, endedBy: null },
  };
}

function leg(type: PlayerAccountType | 'bonus_cost', row: BonusRow, amountMinor: bigint): Leg {
  return { account: type === 'bonus_cost' ? house('bonus_cost', row.userId) : player(row.userId, type), amountMinor };
}

const STEP_WORDS: Record<string, string> = {
  grant: 'granted',
  deactivate: 'deactivated',
  convert: 'wagering complete, converted',
  forfeited: 'forfeited',
  removed: 'removed',
  expired: 'expired',
};

/**
 * The ledger kind of a bonus step. A cashback paid as a bonus is granted as `cashback_bonus`: the
 * player took a cashback, and the cashier's cashbacks tab lists it (the bonus's later steps are bonus_*).
 */
function kindOf(row: BonusRow, step: string): string {
  const name = step.split(':')[0] ?? step;
  return name === 'grant' && row.source === 'cashback' ? 'cashback_bonus' : `bonus_${name}`;
}

/** A bonus step's transfer: keyed by the bonus and the step, so a step is applied once whoever retries it. */
function bonusTransfer(row: BonusRow, step: string, legs: Leg[], actor: string): TransferInput {
  const moved = legs.reduce((sum, part) => (part.amountMinor > 0n ? sum + part.amountMinor : sum), 0n);
  return {
    siteId: row.siteId,
    userId: row.userId,
    kind: kindOf(row, step),
    currency: row.currency,
    amountMinor: moved,
    legs,
    idempotencyKey: `bonus:${row.id}:${step}`,
    reference: `bonus:${row.id}`,
    actor,
    reason: `${row.terms.texts?.en?.title ?? `${row.type} bonus ${row.templateId}`}: ${STEP_WORDS[step.split(':')[0] ?? ''] ?? step}`,
  };
}

export async function updateBonus(tx: Executor, id: number, changes: Partial<typeof bonuses.$inferInsert>): Promise<BonusRow> {
  const [row] = await tx.update(bonuses).set(changes).where(eq(bonuses.id, id)).returning();
  if (!row) throw new Error(`bonus ${id} vanished inside its own transaction`);
  return row;
}
