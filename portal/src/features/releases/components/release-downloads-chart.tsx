// The release's downloads per day over the last two weeks.
import { QueryState } from '../../../components/status';
import { windowStart } from '../../../lib/days';
import { useDownloadsSince } from '../api/downloads';
import { downloadsPerDay } from '../download-days';
import { DownloadsChart } from './downloads-chart';

const CHART_DAYS = 14;

export function ReleaseDownloadsChart({ releaseId }: { releaseId: string }) {
  const since = windowStart(CHART_DAYS);
  const window = useDownloadsSince(releaseId, since);
  return (
    <section className="card">
      <QueryState query={window}>{(data) => <DownloadsChart days={downloadsPerDay(data.times, CHART_DAYS)} partial={data.partial} />}</QueryState>
    </section>
  );
}
