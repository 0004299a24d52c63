import { incidentsApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { osha300, osha300a, osha301 } from './osha.js';
import { osha300Workbook, osha300aWorkbook, osha301Workbook } from './osha-excel.js';
import { osha300aPdf, osha300Pdf, osha301Pdf } from './osha-pdf.js';

/** The OSHA 300 log, 300A summary and 301 report: JSON for printable pages, a workbook on export, a PDF. */
export function oshaRoutes(r: Router) {
  r.route(api.osha300, async ({ tx, principal, query, lang }) => {
    const log = await osha300(tx, principal, query.site_id, query.year, lang);
    return query.export_to_excel ? osha300Workbook(log, lang) : log;
  });
  r.route(api.osha300Pdf, async ({ tx, principal, query, lang }) =>
    osha300Pdf(await osha300(tx, principal, query.site_id, query.year, lang), lang),
  );
  r.route(api.osha300a, async ({ tx, query, lang }) => {
    const summary = await osha300a(tx, query.site_id, query.year, lang);
    return query.export_to_excel ? osha300aWorkbook(summary, lang) : summary;
  });
  r.route(api.osha300aPdf, async ({ tx, query, lang }) => osha300aPdf(await osha300a(tx, query.site_id, query.year, lang), lang));
  r.route(api.osha301, async ({ tx, params, query, lang }) => {
    const report = await osha301(tx, params.id, params.victim_id);
    return query.export_to_excel ? osha301Workbook(report, lang) : report;
  });
  r.route(api.osha301Pdf, async ({ tx, params, lang }) => osha301Pdf(await osha301(tx, params.id, params.victim_id), lang));
}
