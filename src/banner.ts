// The lines printed once the service listens: where to find it and, on the very first
// start, the generated Master Admin credentials in a box nobody can scroll past.
import type { Config } from './config.js';
import type { GeneratedAdmin } from './modules/staff/master-admin.js';

/** A browsable address for a listen host: the wildcard addresses mean "this machine". */
function browsableBase(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

function box(lines: string[]): string[] {
  const width = Math.max(...lines.map((l) => l.length));
  const edge = `+${'-'.repeat(width + 4)}+`;
  return [edge, ...lines.map((l) => `|  ${l.padEnd(width)}  |`), edge];
}

export function startBanner(config: Config, port: number, admin: GeneratedAdmin | null): string {
  const base = browsableBase(config.host, port);
  const lines = [
    '',
    `Licensing service listening on ${config.host}:${port}`,
    `  Portal:         ${base}/portal/`,
    `  API reference:  ${base}/docs  (OpenAPI: ${base}/openapi.json)`,
    `  Health:         ${base}/healthz, ${base}/readyz`,
  ];
  if (config.metricsPort !== null) lines.push(`  Metrics:        http://127.0.0.1:${config.metricsPort}/metrics`);
  else if (config.metricsToken !== null) lines.push(`  Metrics:        ${base}/metrics (Bearer METRICS_TOKEN)`);
  lines.push(`  Database:       ${config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl : 'PostgreSQL'}`);
  if (admin) {
    lines.push(
      '',
      ...box([
        'FIRST START: a Master Admin account was created',
        '',
        `  username:  ${admin.username}`,
        `  password:  ${admin.password}`,
        '',
        'Shown only this once. Sign in at the portal and keep it safe,',
        'or set MASTER_ADMIN_USERNAME / MASTER_ADMIN_PASSWORD to choose your own.',
      ]),
    );
  }
  return `${lines.join('\n')}\n\n`;
}
