// Pure helpers of the requests screen: which actions a request allows, and how its clock reads.

import type { DataRequest } from '../../lib/types';
import type { TKey } from '../../i18n/keys';

export type RequestAction = 'extend' | 'incomplete' | 'complete' | 'answer' | 'close';

/** The actions the server accepts for a request in its present state, in display order. */
export function allowedActions(request: Pick<DataRequest, 'status' | 'kind' | 'extended'>): RequestAction[] {
  const actions: RequestAction[] = [];
  if (request.status === 'open') {
    actions.push('answer');
    if (!request.extended) actions.push('extend');
    if (request.kind === 'reclamo') actions.push('incomplete');
  }
  if (request.status === 'incomplete') actions.push('complete', 'answer');
  if (request.status !== 'closed') actions.push('close');
  return actions;
}

/** The text of a request's days left: its key and count (null while its clock is stopped). */
export function daysLeftText(daysLeft: number | null | undefined): { key: TKey; count: number } | null {
  if (daysLeft == null) return null;
  if (daysLeft < 0) return { key: 'dataRequests.overdue', count: -daysLeft };
  if (daysLeft === 0) return { key: 'dataRequests.dueToday', count: 0 };
  return { key: 'dataRequests.daysLeft', count: daysLeft };
}

/** The tone of a request's clock: overdue, due within 2 business days, or in time. */
export function urgency(daysLeft: number | null | undefined): 'danger' | 'warning' | 'neutral' {
  if (daysLeft == null) return 'neutral';
  if (daysLeft < 0) return 'danger';
  return daysLeft <= 2 ? 'warning' : 'neutral';
}

/** A YYYY-MM-DD day in the interface's language (a calendar day: no time zone shift). */
export function formatDay(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : 'es-CO', { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}
