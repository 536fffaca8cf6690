// Validations per day as stacked bars (successful below, failed on top), in plain CSS.
// A scale on the left and each day's total above its bar; the numbers are also in a
// visually hidden table for screen readers.
import { scaleTop } from '../../../lib/chart-scale';
import type { DayCount } from '../license-stats';

export { scaleTop };

const longDate = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
const dateOf = (day: string) => new Date(`${day}T12:00:00`);

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
