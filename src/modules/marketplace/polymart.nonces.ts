// Polymart redelivers a webhook until it gets a 2xx, with the same nonce. The first
// delivery of a nonce claims it (a row keyed by the nonce) in the transaction that does
// its work and stores its answer there; any later one is answered the same and does
// nothing. A concurrent duplicate waits on the claimed row (PostgreSQL: the primary key;
// SQLite: the one writer) and then reads the answer the first one committed.
import type { Db } from '../../db/database.js';
import { conflict } from '../../http/errors.js';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** True when this transaction claimed `nonce`; false when a committed delivery holds it. */
async function claim(trx: Db, nonce: string, now: number): Promise<boolean> {
  const row = await trx
    .insertInto('polymart_nonces')
    .values({ nonce, status: null, answer: null, received_at: now })
    .onConflict((oc) => oc.column('nonce').doNothing())
    .returning('nonce')
    .executeTakeFirst();
  return row !== undefined;
}

async function storedAnswer(trx: Db, nonce: string): Promise<Answer> {
  const row = await trx.selectFrom('polymart_nonces').select(['status', 'answer']).where('nonce', '=', nonce).executeTakeFirst();
  // A claim is completed in its own transaction, so this is only seen mid-race: try again.
  if (!row || row.status === null || row.answer === null) throw conflict(`Delivery ${nonce} is being processed`);
  return { status: row.status, body: JSON.parse(row.answer) as Record<string, unknown> };
}

/** Runs `work` for the first delivery of `nonce` in `trx` and stores its answer; a redelivery gets that answer. */
export async function answerOnce(trx: Db, nonce: string, work: () => Promise<Answer>): Promise<Answer> {
  if (!(await claim(trx, nonce, Date.now()))) return storedAnswer(trx, nonce);
  const answer = await work();
  await trx
    .updateTable('polymart_nonces')
    .set({ status: answer.status, answer: JSON.stringify(answer.body) })
    .where('nonce', '=', nonce)
    .execute();
  return answer;
}
