// The licensed downloads of a release: how many in all, one page of them, and those of the
// chart's window. The API lists them newest first and has no time filter, so the window
// is read page by page until a download older than its start (or the end) appears.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { keys } from '../../../lib/query-keys';
import type { DownloadRecord } from '../../../types/api';
import { releasePath } from './releases';

const downloadsKey = (id: string) => [...keys.releases, 'detail', id, 'downloads'];
const downloadsPath = (id: string) => `${releasePath(id)}/downloads`;

/** The API's largest page. */
const WINDOW_PAGE = 1000;
/** Pages read at most for the chart: beyond 20,000 downloads in two weeks it says it stopped. */
const WINDOW_PAGES = 20;

/** How many downloads the release has had (the total of a one-record page). */
export const useDownloadCount = (id: string) =>
  useQuery({
    queryKey: [...downloadsKey(id), 'count'],
    queryFn: async ({ signal }) => (await api.list<DownloadRecord>(downloadsPath(id), { limit: 1 }, signal)).total,
  });

export const useDownloads = (id: string, page: { limit: number; offset: number }) =>
  useQuery({
    queryKey: [...downloadsKey(id), 'page', page],
    queryFn: ({ signal }) => api.list<DownloadRecord>(downloadsPath(id), page, signal),
    placeholderData: keepPreviousData,
  });

export interface WindowDownloads {
  /** The download times at or after `since`. */
  times: number[];
  /** True when the reading stopped at WINDOW_PAGES with older downloads still unread. */
  partial: boolean;
}

export async function downloadsSince(id: string, since: number, signal?: AbortSignal): Promise<WindowDownloads> {
  const times: number[] = [];
  for (let page = 0; page < WINDOW_PAGES; page += 1) {
    const { records } = await api.list<DownloadRecord>(downloadsPath(id), { limit: WINDOW_PAGE, offset: page * WINDOW_PAGE }, signal);
    for (const record of records) {
      if (record.atEpochMillis < since) return { times, partial: false };
      times.push(record.atEpochMillis);
    }
    if (records.length < WINDOW_PAGE) return { times, partial: false };
  }
  return { times, partial: true };
}

export const useDownloadsSince = (id: string, since: number) =>
  useQuery({ queryKey: [...downloadsKey(id), 'since', since], queryFn: ({ signal }) => downloadsSince(id, since, signal) });
