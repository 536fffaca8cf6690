// Record lists answer with the array of records and, in X-Total-Count, how many records
// match the filters in all, so a client can show "page 3 of 12" without loading them.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';

/** What a list service returns: the records shown and how many match in all. */
export interface Listed<T> {
  records: T[];
  total: number;
}

/** The 200 response of a list: the records, with the header documented for OpenAPI. */
export const ListResponse = <T extends TSchema>(record: T, description: string) =>
  Type.Array(record, {
    description,
    headers: {
      'X-Total-Count': Type.Integer({
        minimum: 0,
        description: 'How many records match the filters in all, ignoring `limit` and `offset`',
      }),
    },
  });

/** Sets X-Total-Count and answers with the records. */
export function sendList<T>(reply: FastifyReply, list: Listed<T>): T[] {
  reply.header('X-Total-Count', String(list.total));
  return list.records;
}
