import { describe, expect, it } from 'vitest';
import { KeyedSerial } from './keyed-serial.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedSerial', () => {
  it('runs one key\'s tasks one at a time, in order, and other keys beside them', async () => {
    const serial = new KeyedSerial();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const a = [serial.run('a', task('a1')), serial.run('a', task('a2')), serial.run('a', task('a3'))];
    const b = serial.run('b', task('b1'));
    expect(await Promise.all([...a, b])).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(log.filter((l) => l.endsWith('a1') || l.endsWith('a2') || l.endsWith('a3'))).toEqual([
      'start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3',
    ]);
    expect(most).toBe(2); // a's chain and b beside it
    expect(serial.size).toBe(0);
  });

  it('goes on after a task fails, and hands the failure to its caller only', async () => {
    const serial = new KeyedSerial();
    const failed = serial.run('k', async () => {
      throw new Error('boom');
    });
    const next = serial.run('k', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('next');
    await tick();
    expect(serial.size).toBe(0);
  });
});
