// The renew dialog's own checks, before anything is sent: days within the API's bounds
// (empty: the product's period), an amount of money or nothing.
import { amount as amountCheck, optionalWholeNumber } from '../../lib/form-checks';
import { LICENSE_SETTINGS } from '../../lib/from-server';

const DAYS = LICENSE_SETTINGS.validForDays;

export function renewProblems(days: string, amount: string): { days?: string; amount?: string } {
  const problems: { days?: string; amount?: string } = {};
  const dayProblem = optionalWholeNumber(days);
  if (dayProblem) problems.days = dayProblem;
  else if (days.trim() !== '' && (Number(days) < DAYS.minimum || Number(days) > DAYS.maximum)) problems.days = `Enter ${DAYS.minimum} to ${DAYS.maximum} days.`;
  const amountProblem = amount.trim() === '' ? null : amountCheck(amount);
  if (amountProblem) problems.amount = amountProblem;
  return problems;
}
