/**
 * Coupons' SQL (spec 001 §2 /gestion "Canjear Cupón", issue 11): creating and listing coupons for the
 * `charla coupons` command, and redeeming one for an owner, which adds its days through
 * {@link grantInTransaction} in the same transaction that counts the redemption, so a coupon is
 * redeemed once per owner and never past its maximum even when two requests race.
 */
import { sql } from 'kysely';
import { type BillingDb, grantInTransaction } from './queries.ts';

/** A new coupon (see tables.ts `BillingCouponsTable`). */
export interface NewCoupon {
  code: string;
  days: number;
  maxRedemptions: number | null;
  validUntil: Date | null;
  createdBy: string;
}

/**
 * Creates a coupon (the code uppercased).
 * @returns the row, or null when the code exists.
 */
export async function createCoupon(db: BillingDb, coupon: NewCoupon) {
  return (
    (await db
      .insertInto('billing_coupons')
      .values({
        code: coupon.code.trim().toUpperCase(),
        days: coupon.days,
        max_redemptions: coupon.maxRedemptions,
        valid_until: coupon.validUntil,
        created_by: coupon.createdBy,
      })
      .onConflict((oc) => oc.column('code').doNothing())
      .returningAll()
      .executeTakeFirst()) ?? null
  );
}

/** Every coupon, newest first. */
export async function listCoupons(db: BillingDb) {
  return db.selectFrom('billing_coupons').selectAll().orderBy('created_at', 'desc').execute();
}

/** Why a coupon was refused. */
export type CouponRefusal = 'invalid' | 'expired' | 'exhausted' | 'alreadyRedeemed';

class Refused extends Error {
  constructor(readonly reason: CouponRefusal) {
    super(reason);
  }
}

/**
 * Redeems a coupon for an owner, in one transaction: the coupon's count goes up only while it is
 * below `max_redemptions` (the row lock serialises parallel redemptions, so a 5-use coupon grants
 * exactly 5), the owner's redemption row is unique (a second one by the same owner is refused), and
 * the days are granted with the key `coupon:<coupon id>:<owner id>`. A refusal writes nothing.
 * @param code as typed; uppercased here (spec 001 §4).
 */
export async function redeemCoupon(
  db: BillingDb,
  input: { code: string; userId: string; now: Date },
): Promise<{ ok: true; days: number; expiresAt: Date | null } | { ok: false; reason: CouponRefusal }> {
  const code = input.code.trim().toUpperCase();
  try {
    return await db.transaction().execute(async (trx) => {
      const coupon = await trx
        .selectFrom('billing_coupons')
        .select(['id', 'days', 'valid_until'])
        .where('code', '=', code)
        .executeTakeFirst();
      if (!coupon) throw new Refused('invalid');
      if (coupon.valid_until && new Date(coupon.valid_until).getTime() <= input.now.getTime())
        throw new Refused('expired');
      const counted = await trx
        .updateTable('billing_coupons')
        .set({ redeemed: sql`redeemed + 1` })
        .where('id', '=', coupon.id)
        .where((eb) =>
          eb.or([eb('max_redemptions', 'is', null), eb('redeemed', '<', eb.ref('max_redemptions'))]),
        )
        .returning('id')
        .executeTakeFirst();
      const mine = await trx
        .insertInto('billing_coupon_redemptions')
        .values({ coupon_id: coupon.id, user_id: input.userId, created_at: input.now })
        .onConflict((oc) => oc.columns(['coupon_id', 'user_id']).doNothing())
        .returning('user_id')
        .executeTakeFirst();
      if (!mine) throw new Refused('alreadyRedeemed');
      if (!counted) throw new Refused('exhausted');
      const outcome = await grantInTransaction(trx, {
        key: `coupon:${coupon.id}:${input.userId}`,
        userId: input.userId,
        kind: 'coupon',
        days: coupon.days,
        source: code,
        now: input.now,
      });
      return { ok: true as const, days: coupon.days, expiresAt: outcome.expiresAt };
    });
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.reason };
    throw err;
  }
}
