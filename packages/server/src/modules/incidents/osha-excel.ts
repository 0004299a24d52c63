import { OSHA_INJURY_TYPES, translate, type Language, type Osha300, type Osha300A, type Osha301 } from '@bulwark/domain';
import ExcelJS from 'exceljs';
import { FileAnswer, XLSX_TYPE } from '../../platform/http/answers.js';

/**
 * The OSHA forms as workbooks, laid out as the official forms are: the 300 log's columns A–M (the
 * classification and the injury type as check marks, one column each), its totals line; the 300A's
 * figures; the 301's three blocks. Privacy cases are never named (1904.29(b)(6)).
 */

type T = (key: string, vars?: Record<string, string | number>) => string;
const tr =
  (lang: Language): T =>
  (key, vars) =>
    translate(lang, key, vars);
const CHECK = 'X';

function titleBlock(ws: ExcelJS.Worksheet, t: T, title: string, subtitle: string, est: Osha300['establishment'], year?: number) {
  ws.addRow([title]).font = { bold: true, size: 14 };
  ws.addRow([subtitle]).font = { bold: true };
  ws.addRow([year !== undefined ? t('incidents.osha.log.yearEstablishment', { year, name: est.name }) : est.name]);
  ws.addRow([[est.street, est.city, est.state, est.zip, est.country].filter(Boolean).join(', ')]);
  ws.addRow([]);
}

async function answer(wb: ExcelJS.Workbook, fileName: string): Promise<FileAnswer> {
  return new FileAnswer(Buffer.from(await wb.xlsx.writeBuffer()), XLSX_TYPE, fileName);
}

function book(): ExcelJS.Workbook {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Bulwark EHS';
  return wb;
}

export async function osha300Workbook(log: Osha300, lang: Language): Promise<FileAnswer> {
  const t = tr(lang);
  const wb = book();
  const ws = wb.addWorksheet('OSHA 300');
  titleBlock(ws, t, t('incidents.osha.log.title'), t('incidents.osha.log.subtitle'), log.establishment, log.year);
  const c = (k: string) => t(`incidents.osha.log.columns.${k}`);
  const header = [
    c('caseNumber'),
    c('employeeName'),
    c('jobTitle'),
    c('date'),
    c('location'),
    c('description'),
    c('death'),
    c('daysAway'),
    c('transfer'),
    c('other'),
    c('awayDays'),
    c('transferDays'),
    ...OSHA_INJURY_TYPES.map((k, i) => `(M${i + 1}) ${t(`incidents.osha.injuryTypes.${k}`)}`),
  ];
  const head = ws.addRow(header);
  head.font = { bold: true };
  head.alignment = { wrapText: true, vertical: 'top' };
  ws.views = [{ state: 'frozen', ySplit: head.number }];
  for (const r of log.rows) {
    ws.addRow([
      r.case_number,
      r.employee_name ?? t('incidents.privacyCase'),
      r.job_title ?? '',
      r.date,
      r.location,
      r.description,
      r.classification === 'death' ? CHECK : '',
      r.classification === 'days_away' ? CHECK : '',
      r.classification === 'job_transfer_restriction' ? CHECK : '',
      r.classification === 'other_recordable' ? CHECK : '',
      r.days_away,
      r.days_restricted,
      ...OSHA_INJURY_TYPES.map((k) => (r.injury_type === k ? CHECK : '')),
    ]);
  }
  const s = log.totals;
  ws.addRow([
    t('incidents.osha.log.totals'),
    '',
    '',
    '',
    '',
    '',
    s.deaths,
    s.days_away_cases,
    s.job_transfer_restriction_cases,
    s.other_recordable_cases,
    s.days_away,
    s.days_restricted,
    ...OSHA_INJURY_TYPES.map((k) => s.injury_types[k]),
  ]).font = { bold: true };
  ws.addRow([]);
  ws.addRow([t('incidents.osha.log.privacyNote')]);
  ws.columns.forEach((col, i) => (col.width = [10, 24, 18, 14, 22, 48][i] ?? 12));
  return answer(wb, `OSHA-300-${log.year}.xlsx`);
}

export async function osha300aWorkbook(s: Osha300A, lang: Language): Promise<FileAnswer> {
  const t = tr(lang);
  const wb = book();
  const ws = wb.addWorksheet('OSHA 300A');
  titleBlock(ws, t, t('incidents.osha.summary.title'), t('incidents.osha.summary.subtitle'), s.establishment, s.year);
  const k = (key: string) => t(`incidents.osha.summary.${key}`);
  const section = (title: string) => (ws.addRow([title]).font = { bold: true });
  section(k('numberOfCases'));
  ws.addRow([`(G) ${k('deaths')}`, s.totals.deaths]);
  ws.addRow([`(H) ${k('daysAwayCases')}`, s.totals.days_away_cases]);
  ws.addRow([`(I) ${k('transferCases')}`, s.totals.job_transfer_restriction_cases]);
  ws.addRow([`(J) ${k('otherCases')}`, s.totals.other_recordable_cases]);
  section(k('numberOfDays'));
  ws.addRow([`(K) ${k('daysAway')}`, s.totals.days_away]);
  ws.addRow([`(L) ${k('daysRestricted')}`, s.totals.days_restricted]);
  section(k('injuryIllnessTypes'));
  OSHA_INJURY_TYPES.forEach((type, i) =>
    ws.addRow([`(M${i + 1}) ${t(`incidents.osha.injuryTypes.${type}`)}`, s.totals.injury_types[type]]),
  );
  section(k('employment'));
  ws.addRow([k('averageEmployees'), s.average_employees]);
  ws.addRow([k('hoursWorked'), s.hours_worked]);
  ws.addRow([k('hoursRule')]);
  ws.getColumn(1).width = 60;
  ws.getColumn(2).width = 14;
  return answer(wb, `OSHA-300A-${s.year}.xlsx`);
}

export async function osha301Workbook(r: Osha301, lang: Language): Promise<FileAnswer> {
  const t = tr(lang);
  const wb = book();
  const ws = wb.addWorksheet('OSHA 301');
  titleBlock(ws, t, t('incidents.osha.report301.title'), t('incidents.osha.report301.subtitle'), r.establishment);
  const section = (title: string) => (ws.addRow([title]).font = { bold: true });
  const yes = (b: boolean) => t(b ? 'incidents.fields.yes' : 'incidents.fields.no');
  section(t('incidents.osha.report301.employeeInfo'));
  ws.addRow([t('incidents.victim.name'), r.employee.name]);
  ws.addRow([t('incidents.victim.employeeId'), r.employee.employee_id ?? '']);
  ws.addRow([t('incidents.osha.fields.jobTitle'), r.employee.job_title ?? '']);
  ws.addRow([t('incidents.victim.gender'), t(`incidents.genders.${r.employee.gender}`)]);
  ws.addRow([t('incidents.victim.ageRange'), r.employee.age_range ? t(`incidents.ageRanges.${r.employee.age_range}`) : '']);
  section(t('incidents.osha.report301.treatmentInfo'));
  ws.addRow([t('incidents.victim.treatment'), r.treatment.treatment ?? '']);
  ws.addRow([t('incidents.osha.report301.emergencyRoom'), yes(r.treatment.taken_to_hospital)]);
  section(t('incidents.osha.report301.caseInfo'));
  const c = r.case;
  ws.addRow([t('incidents.osha.fields.caseNumber'), c.case_number]);
  ws.addRow([t('incidents.osha.report301.dateOfInjury'), c.date_of_injury]);
  ws.addRow([t('incidents.osha.report301.timeOfEvent'), c.time_of_event]);
  ws.addRow([t('incidents.osha.report301.whatHappened'), c.what_happened]);
  ws.addRow([t('incidents.osha.report301.injury'), c.injury ?? '']);
  ws.addRow([t('incidents.victim.bodyParts'), c.body_parts.map((p) => t(`incidents.bodyParts.${p}`)).join(', ')]);
  ws.addRow([t('incidents.osha.report301.actionTaken'), c.action_taken]);
  ws.addRow([t('incidents.osha.fields.dateOfDeath'), c.date_of_death ?? '']);
  ws.addRow([t('incidents.osha.fields.classification'), t(`incidents.osha.classifications.${c.classification}`)]);
  ws.addRow([t('incidents.osha.fields.daysAway'), c.days_away]);
  ws.addRow([t('incidents.osha.fields.daysRestricted'), c.days_restricted]);
  ws.addRow([t('incidents.osha.fields.injuryType'), t(`incidents.osha.injuryTypes.${c.injury_type}`)]);
  ws.addRow([t('incidents.osha.fields.privacyReason'), yes(c.privacy_case)]);
  ws.getColumn(1).width = 48;
  ws.getColumn(2).width = 60;
  ws.getColumn(2).alignment = { wrapText: true, vertical: 'top' };
  return answer(wb, `OSHA-301-${c.case_number}.xlsx`);
}
