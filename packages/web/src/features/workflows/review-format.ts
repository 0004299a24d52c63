import type { ReviewEvent } from '@bulwark/domain';
import type { TFunction } from 'i18next';

type T = TFunction;

/** One timeline step in words: who did what (and for whom, when the escalation user acted in a reviewer's place). */
export function reviewEventText(t: T, e: ReviewEvent): string {
  const actor = e.actor?.full_name || t('reviews.system');
  const reviewer = e.reviewer?.full_name ?? '';
  const to = e.to?.full_name ?? '';
  const inPlace = e.actor !== null && e.reviewer !== null && e.actor.id !== e.reviewer.id;
  switch (e.kind) {
    case 'approved':
      return inPlace ? t('reviews.events.approvedFor', { actor, reviewer }) : t('reviews.events.approved', { actor });
    case 'rejected':
      return inPlace ? t('reviews.events.rejectedFor', { actor, reviewer }) : t('reviews.events.rejected', { actor });
    case 'reviewer_replaced':
      return e.to ? t('reviews.events.reviewer_replaced', { reviewer, to }) : t('reviews.events.reviewer_dropped', { reviewer });
    case 'closed':
      return t(e.outcome === 'approved' ? 'reviews.events.closedApproved' : 'reviews.events.closedRejected', { round: e.round });
    default:
      return t(`reviews.events.${e.kind}`, { actor, reviewer, to });
  }
}

/** A moment in the reader's language and time zone: the app's one date-and-time format. */
export function reviewDateTime(iso: string, language: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}
