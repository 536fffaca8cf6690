// BuiltByBit retries a purchase webhook that got no 2xx, with the same body. A purchase is
// one by its identity (resource, addon, user, purchase date): the first delivery claims it
// (a row keyed by the identity) in the transaction that does its work and stores its answer
// there; a later one is answered the same and does nothing; a concurrent one waits on the
// claimed row and then reads the committed answer (as Polymart's nonces do).
import type { Db } from '../../db/database.js';
import { conflict } from '../../http/errors.js';
import { clock } from '../../lib/clock.js';

export interface PurchaseIdentity {
  resourceId: string;
  addonId: string | null;
  userId: string;
  purchaseDate: number;
}

/** The stored key: the four parts, joined by a character none of them holds. */
export const identityKey = (id: PurchaseIdentity) => [id.resourceId, id.addonId ?? '', id.userId, String(id.purchaseDate)].join('\u001f');

/** Runs `work` for the first delivery of the purchase in `trx` and stores its answer; a redelivery gets that answer. */
export async function actOnce<T>(trx: Db, identity: PurchaseIdentity, work: () => Promise<T>): Promise<T> {
  const key = identityKey(identity);
  const claimed = await trx
    .insertInto('builtbybit_purchases')
    .values({ identity: key, answer: null, received_at: clock.now() })
    .onConflict((oc) => oc.column('identity').doNothing())
    .returning('identity')
    .executeTakeFirst();
  if (!claimed) {
    const row = await trx.selectFrom('builtbybit_purchases').select('answer').where('identity', '=', key).executeTakeFirst();
    if (!row || row.answer === null) throw conflict('This purchase is being processed'); // only mid-race: retried
    return JSON.parse(row.answer) as T;
  }
  const answer = await work();
  await trx.updateTable('builtbybit_purchases').set({ answer: JSON.stringify(answer) }).where('identity', '=', key).execute();
  return answer;
}
