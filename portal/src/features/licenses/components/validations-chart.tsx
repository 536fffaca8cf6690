// Validations per day as stacked bars (successful below, failed on top), in plain CSS.
// A scale on the left and each day's total above its bar; the numbers are also in a
// visually hidden table for screen readers.
import type { DayCount } from '../license-stats';

const longDate = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
const dateOf = (day: string) => new Date(`${day}T12:00:00`);

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

export function ValidationsChart({ days }: { days: DayCount[] }) {
  const max = scaleTop(Math.max(1, ...days.map((d) => d.successful + d.failed)));
  const total = days.reduce((sum, d) => sum + d.successful + d.failed, 0);

  return (
    <figure className="chart" data-testid="validations-chart">
      <figcaption>
        Validations per day, {days.length > 0 ? `${longDate.format(dateOf(days[0]!.day))} – ${longDate.format(dateOf(days[days.length - 1]!.day))}` : 'no days'}{' '}
        <span className="legend">
          <span className="swatch swatch-ok" aria-hidden="true" /> successful <span className="swatch swatch-bad" aria-hidden="true" /> failed
        </span>
      </figcaption>
      {total === 0 ? <p className="muted">No validation attempts in this period.</p> : null}
      <div className="chart-body" aria-hidden="true">
      <div className="chart-scale" data-testid="chart-scale">
        <span>{max}</span>
        <span>{max >= 2 ? max / 2 : ''}</span>
        <span>0</span>
      </div>
      <div className="bars">
        {days.map((d) => (
          <div className="bar-column" key={d.day} title={`${longDate.format(dateOf(d.day))}: ${d.successful} successful, ${d.failed} failed`}>
            <span className="bar-total" data-testid="bar-total">{d.successful + d.failed || ''}</span>
            <div className="bar-stack">
              <div className="bar bar-bad" style={{ height: `${(d.failed / max) * 100}%` }} />
              <div className="bar bar-ok" style={{ height: `${(d.successful / max) * 100}%` }} />
            </div>
            <span className="bar-label">{dateOf(d.day).getDate()}</span>
          </div>
        ))}
      </div>
      </div>
      <table className="visually-hidden chart-table">
        <caption>Validations per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Successful</th>
            <th scope="col">Failed</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{d.successful}</td>
              <td>{d.failed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
