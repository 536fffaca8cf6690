// A release's downloads per day as bars, drawn like the validations chart (plain CSS, a
// scale, each day's count above its bar, the numbers in a visually hidden table).
import { scaleTop } from '../../../lib/chart-scale';
import type { DayDownloads } from '../download-days';

const longDate = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
const dateOf = (day: string) => new Date(`${day}T12:00:00`);

export function DownloadsChart({ days, partial }: { days: DayDownloads[]; partial: boolean }) {
  const max = scaleTop(Math.max(1, ...days.map((d) => d.downloads)));
  const total = days.reduce((sum, d) => sum + d.downloads, 0);

  return (
    <figure className="chart" data-testid="downloads-chart">
      <figcaption>
        Downloads per day, {days.length > 0 ? `${longDate.format(dateOf(days[0]!.day))} – ${longDate.format(dateOf(days[days.length - 1]!.day))}` : 'no days'}
        {total > 0 ? <span className="muted"> ({total} in {days.length} days{partial ? ', counting the latest 20,000 only' : ''})</span> : null}
      </figcaption>
      {total === 0 ? <p className="muted">No downloads in this period.</p> : null}
      <div className="chart-body" aria-hidden="true">
        <div className="chart-scale">
          <span>{max}</span>
          <span>{max >= 2 ? max / 2 : ''}</span>
          <span>0</span>
        </div>
        <div className="bars">
          {days.map((d) => (
            <div className="bar-column" key={d.day} title={`${longDate.format(dateOf(d.day))}: ${d.downloads} download${d.downloads === 1 ? '' : 's'}`}>
              <span className="bar-total" data-testid="bar-total">{d.downloads || ''}</span>
              <div className="bar-stack">
                <div className="bar bar-download" style={{ height: `${(d.downloads / max) * 100}%` }} />
              </div>
              <span className="bar-label">{dateOf(d.day).getDate()}</span>
            </div>
          ))}
        </div>
      </div>
      <table className="visually-hidden chart-table">
        <caption>Downloads per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Downloads</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{d.downloads}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
