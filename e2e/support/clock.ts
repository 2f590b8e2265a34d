// Time-based rules (point expiration) cannot be reached through the API: points earned now are
// not due for days. This moves a company's earned points into the past, directly in its schema,
// the one place the suite touches the database behind the server.

import { spawnSync } from 'node:child_process';
import { runState } from './run';

export function ageEarnedPoints(prefix: string, days: number): void {
  if (!/^[a-z][a-z0-9]{1,29}$/.test(prefix)) throw new Error(`not a company prefix: ${prefix}`);
  const url = new URL(process.env.DATABASE_URL ?? '');
  url.pathname = `/${runState().database}`;
  // The company's schema is the one its platform row names (a company made from a spare keeps
  // the spare's).
  const sql =
    `do $$ begin execute format('update %I.point_batches set earned_at = earned_at - interval ''%s days''', ` +
    `(select schema_name from platform.companies where prefix = '${prefix}'), ${Math.trunc(days)}); end $$`;
  const result = spawnSync('psql', [url.toString(), '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
}
