import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the audits module (screen ids of the domain route table). */
export const auditsScreens: ScreenLoaders = {
  audits: () => import('./audits-page.js').then((m) => m.AuditsPage),
  auditReport: () => import('./report-page.js').then((m) => m.AuditReportPage),
  auditSummary: () => import('./summary-page.js').then((m) => m.AuditSummaryPage),
  auditForms: () => import('./templates-page.js').then((m) => m.AuditFormsPage),
  auditSchedules: () => import('./schedules-page.js').then((m) => m.AuditSchedulesPage),
  auditCalendar: () => import('./calendar-page.js').then((m) => m.AuditCalendarPage),
  auditTrends: () => import('./trends-page.js').then((m) => m.AuditTrendsPage),
};
