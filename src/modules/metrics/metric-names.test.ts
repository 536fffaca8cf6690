// Metric names follow one convention: the service's own carry the `licensing_` prefix
// (Node's defaults, `process_*` and `nodejs_*`, are prom-client's), counters end in
// `_total`, and Prometheus' own linter (`promtool check metrics`, when installed: Debian
// package `prometheus`, or PROMTOOL=/path/to/promtool) finds nothing to say about them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const NODE_DEFAULTS = /^(process_|nodejs_)/;

function promtool(): string | null {
  const candidates = [process.env.PROMTOOL, '/usr/bin/promtool', '/usr/local/bin/promtool'].filter((p): p is string => !!p);
  return candidates.find((p) => existsSync(p)) ?? null;
}

describe('metric names', () => {
  let t: TestApp;
  let text: string;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { METRICS_TOKEN: TOKEN });
    text = (await t.req('GET', '/metrics', { token: TOKEN })).text;
  });
  afterAll(() => t?.close());

  const declared = () =>
    [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({ name: m[1]!, type: m[2]! })).filter((m) => !NODE_DEFAULTS.test(m.name));

  it('gives every metric of the service the licensing_ prefix, the webhook ones included', () => {
    const names = declared().map((m) => m.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'licensing_webhook_deliveries_total',
        'licensing_webhook_queue_depth',
        'licensing_webhook_oldest_pending_seconds',
        'licensing_slot_releases_total',
      ]),
    );
    expect(names.filter((name) => !name.startsWith('licensing_'))).toEqual([]);
  });

  it('ends counters in _total and nothing else', () => {
    const wrong = declared().filter((m) => (m.type === 'counter') !== m.name.endsWith('_total'));
    expect(wrong).toEqual([]);
  });

  it.runIf(promtool() !== null)('passes promtool check metrics, apart from the Node defaults', () => {
    const result = spawnSync(promtool()!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    const problems = `${result.stdout}${result.stderr}`
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^(process_|nodejs_)/.test(line.trim()));
    expect(problems).toEqual([]);
  });
});
