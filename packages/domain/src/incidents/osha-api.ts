import { fileResponse } from '../api/shared.js';
import { osha300aResponse, osha300Response, osha301Params, osha301Query, osha301Response, oshaLogQuery } from './osha-forms.js';

const read = { subject: 'Incident', action: 'read' } as const;

/**
 * The OSHA forms of incidentsApi (29 CFR 1904; docs/modules.md "OSHA injury and illness records"):
 * each as JSON for printable pages, a workbook with export_to_excel=true, and a PDF.
 */
export const oshaEndpoints = {
  osha300: {
    method: 'GET',
    path: '/api/incidents/osha/300',
    access: read,
    summary:
      "OSHA Form 300, the log of work-related injuries and illnesses of one site (establishment) and year; export_to_excel=true gives the log's columns as a workbook",
    query: oshaLogQuery,
    response: osha300Response,
    file: 'on_export',
  },
  osha300Pdf: {
    method: 'GET',
    path: '/api/incidents/osha/300.pdf',
    access: read,
    summary: 'OSHA Form 300 of one site and year as a landscape PDF in the layout of the official log (privacy cases unnamed)',
    query: oshaLogQuery,
    response: fileResponse,
    file: 'always',
  },
  osha300a: {
    method: 'GET',
    path: '/api/incidents/osha/300a',
    access: read,
    summary:
      "OSHA Form 300A, the year's summary of one site: case and day totals, injury types, average employees and hours worked (from manpower)",
    query: oshaLogQuery,
    response: osha300aResponse,
    file: 'on_export',
  },
  osha300aPdf: {
    method: 'GET',
    path: '/api/incidents/osha/300a.pdf',
    access: read,
    summary: 'OSHA Form 300A of one site and year as a PDF in the layout of the official summary',
    query: oshaLogQuery,
    response: fileResponse,
    file: 'always',
  },
  osha301: {
    method: 'GET',
    path: '/api/incidents/:id/victims/:victim_id/osha_301',
    access: read,
    summary: 'OSHA Form 301, the injury and illness incident report of one recordable case; export_to_excel=true gives it as a workbook',
    params: osha301Params,
    query: osha301Query,
    response: osha301Response,
    file: 'on_export',
  },
  osha301Pdf: {
    method: 'GET',
    path: '/api/incidents/:id/victims/:victim_id/osha_301.pdf',
    access: read,
    summary: 'OSHA Form 301 of one recordable case as a PDF in the layout of the official report',
    params: osha301Params,
    response: fileResponse,
    file: 'always',
  },
} as const;
