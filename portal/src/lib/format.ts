// Display formats shared by every page: dates, money, limits.
import { SELF_RELEASE_WINDOW_DAYS } from './from-server';

// Seconds shown: several validations in one minute must be told apart and ordered.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const money = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const formatDateTime = (epochMillis: number) => dateTime.format(new Date(epochMillis));
export const formatDate = (epochMillis: number) => dateOnly.format(new Date(epochMillis));
export const formatMoney = (amount: number) => money.format(amount);

/** A slot limit: null means unlimited. */
/** A slot timeout: null means bindings are permanent. */
export function formatSlotTimeout(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return 'Never (bindings are permanent)';
  const [value, unit] = minutes % 1440 === 0 ? [minutes / 1440, 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `After ${value} ${unit}${value === 1 ? '' : 's'} idle`;
}

/** A self-release limit: null means the buyer cannot release machines themselves. */
export const formatSelfReleaseLimit = (limit: number | null | undefined) =>
  limit === null || limit === undefined ? 'Off' : `${limit} per ${SELF_RELEASE_WINDOW_DAYS} days`;

export const formatLimit = (limit: number | null | undefined) => (limit === null || limit === undefined ? 'Unlimited' : String(limit));

export const formatExpiry = (expiresAtEpochMillis: number | null) =>
  expiresAtEpochMillis === null ? 'Never (perpetual)' : formatDateTime(expiresAtEpochMillis);

/** The `data` snapshot of an audit entry, indented for reading; non-JSON text as is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Value for an <input type="datetime-local"> in local time, from epoch millis. */
export function toDateTimeLocal(epochMillis: number | null): string {
  if (epochMillis === null) return '';
  const date = new Date(epochMillis);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Epoch millis from an <input type="datetime-local"> value; empty means none. */
export function fromDateTimeLocal(value: string): number | null {
  if (value.trim() === '') return null;
  const millis = new Date(value).getTime();
  return Number.isNaN(millis) ? null : millis;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "5 minutes ago", "in 2 days": for a time shown with the exact time on hover. */
export function formatRelative(epochMillis: number, now = Date.now()): string {
  const seconds = Math.round((epochMillis - now) / 1000);
  const steps: [number, Intl.RelativeTimeFormatUnit][] = [[60, 'second'], [60, 'minute'], [24, 'hour'], [30, 'day'], [12, 'month']];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return relative.format(value, unit);
    value = Math.round(value / size);
  }
  return relative.format(value, 'year');
}
