// The scale of the portal's CSS bar charts (validations, downloads).

/** The scale's top: a round number at or above `max` whose half is a whole number (or 1). */
export function scaleTop(max: number): number {
  if (max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 4, 6, 8, 10]) {
    const top = step * power;
    if (top >= max && top % 2 === 0) return top;
  }
  return 10 * power;
}
