import { OSHA_INJURY_TYPES, translate, type Language, type Osha300, type Osha300A, type Osha301 } from '@bulwark/domain';
import { FileAnswer } from '../../platform/http/answers.js';
import { newPdf, type Pdf } from './pdf-kit.js';

/**
 * The OSHA forms as PDFs in the official layouts: the 300 log landscape with its columns A–M and the
 * totals line, the 300A summary's blocks, the 301 report's three parts. Privacy cases are unnamed.
 */

type T = (key: string, vars?: Record<string, string | number>) => string;
const tr =
  (lang: Language): T =>
  (key, vars) =>
    translate(lang, key, vars);
const CHECK = '✓';

function header(pdf: Pdf, t: T, title: string, subtitle: string, est: Osha300['establishment'], year?: number) {
  pdf.write('bold', 16, title);
  pdf.write('bold', 11, subtitle);
  pdf.write('body', 9.5, year !== undefined ? t('incidents.osha.log.yearEstablishment', { year, name: est.name }) : est.name);
  pdf.write('body', 9.5, [est.street, est.city, est.state, est.zip, est.country].filter(Boolean).join(', '));
  pdf.doc.moveDown(0.5);
}

function inline(bytes: Buffer, name: string): FileAnswer {
  return new FileAnswer(bytes, 'application/pdf', name, { disposition: 'inline' });
}

export async function osha300Pdf(log: Osha300, lang: Language): Promise<FileAnswer> {
  const t = tr(lang);
  const pdf = await newPdf(`${t('incidents.osha.log.title')} ${log.year}`, 'landscape');
  header(pdf, t, t('incidents.osha.log.title'), t('incidents.osha.log.subtitle'), log.establishment, log.year);
  const c = (k: string) => t(`incidents.osha.log.columns.${k}`);
  const narrow = 0.038;
  const columns = [
    { label: c('caseNumber'), width: 0.06 },
    { label: c('employeeName'), width: 0.1 },
    { label: c('jobTitle'), width: 0.08 },
    { label: c('date'), width: 0.07 },
    { label: c('location'), width: 0.09 },
    { label: c('description'), width: 0.196 },
    ...['death', 'daysAway', 'transfer', 'other'].map((k) => ({ label: c(k), width: narrow, align: 'center' as const })),
    { label: c('awayDays'), width: 0.05, align: 'right' as const },
    { label: c('transferDays'), width: 0.05, align: 'right' as const },
    ...OSHA_INJURY_TYPES.map((k, i) => ({
      label: `(M${i + 1}) ${t(`incidents.osha.injuryTypes.${k}`)}`,
      width: 0.027,
      align: 'center' as const,
    })),
  ];
  const s = log.totals;
  pdf.table(
    columns,
    [
      ...log.rows.map((r) => [
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
        String(r.days_away),
        String(r.days_restricted),
        ...OSHA_INJURY_TYPES.map((k) => (r.injury_type === k ? CHECK : '')),
      ]),
      [
        t('incidents.osha.log.totals'),
        '',
        '',
        '',
        '',
        '',
        ...[s.deaths, s.days_away_cases, s.job_transfer_restriction_cases, s.other_recordable_cases, s.days_away, s.days_restricted].map(
          String,
        ),
        ...OSHA_INJURY_TYPES.map((k) => String(s.injury_types[k])),
      ],
    ],
    6.5,
  );
  pdf.doc.moveDown(0.5);
  if (log.rows.length === 0) pdf.write('body', 9, t('incidents.osha.log.empty'));
  pdf.write('body', 8, t('incidents.osha.log.privacyNote'));
  const bytes = await pdf.finish((page, pages) => t('incidents.report.page', { page, pages }));
  return inline(bytes, `OSHA-300-${log.year}.pdf`);
}

export async function osha300aPdf(s: Osha300A, lang: Language): Promise<FileAnswer> {
  const t = tr(lang);
  const k = (key: string) => t(`incidents.osha.summary.${key}`);
  const pdf = await newPdf(`${k('title')} ${s.year}`);
  header(pdf, t, k('title'), k('subtitle'), s.establishment, s.year);
  const pairs = (rows: Array<[string, number]>) =>
    pdf.table(
      [
        { label: '', width: 0.8 },
        { label: '', width: 0.2, align: 'right' },
      ],
      rows.map(([label, n]) => [label, String(n)]),
      10,
    );
  pdf.heading(k('numberOfCases'));
  pairs([
    [`(G) ${k('deaths')}`, s.totals.deaths],
    [`(H) ${k('daysAwayCases')}`, s.totals.days_away_cases],
    [`(I) ${k('transferCases')}`, s.totals.job_transfer_restriction_cases],
    [`(J) ${k('otherCases')}`, s.totals.other_recordable_cases],
  ]);
  pdf.heading(k('numberOfDays'));
  pairs([
    [`(K) ${k('daysAway')}`, s.totals.days_away],
    [`(L) ${k('daysRestricted')}`, s.totals.days_restricted],
  ]);
  pdf.heading(k('injuryIllnessTypes'));
  pairs(OSHA_INJURY_TYPES.map((type, i) => [`(M${i + 1}) ${t(`incidents.osha.injuryTypes.${type}`)}`, s.totals.injury_types[type]]));
  pdf.heading(k('establishment'));
  pdf.field(k('street'), s.establishment.street);
  pdf.field(`${k('city')} · ${k('state')} · ${k('zip')}`, [s.establishment.city, s.establishment.state, s.establishment.zip].join(' · '));
  pdf.field(k('country'), s.establishment.country);
  pdf.heading(k('employment'));
  pairs([
    [k('averageEmployees'), s.average_employees],
    [k('hoursWorked'), s.hours_worked],
  ]);
  pdf.write('body', 8, k('hoursRule'));
  const bytes = await pdf.finish((page, pages) => t('incidents.report.page', { page, pages }));
  return inline(bytes, `OSHA-300A-${s.year}.pdf`);
}

export async function osha301Pdf(r: Osha301, lang: Language): Promise<FileAnswer> {
  const t = tr(lang);
  const pdf = await newPdf(`${t('incidents.osha.report301.title')} ${r.case.case_number}`);
  header(pdf, t, t('incidents.osha.report301.title'), t('incidents.osha.report301.subtitle'), r.establishment);
  const yes = (b: boolean) => t(b ? 'incidents.fields.yes' : 'incidents.fields.no');
  pdf.heading(t('incidents.osha.report301.employeeInfo'));
  pdf.field(t('incidents.victim.name'), r.employee.name);
  pdf.field(t('incidents.victim.employeeId'), r.employee.employee_id ?? '');
  pdf.field(t('incidents.osha.fields.jobTitle'), r.employee.job_title ?? '');
  pdf.field(t('incidents.victim.gender'), t(`incidents.genders.${r.employee.gender}`));
  pdf.field(t('incidents.victim.ageRange'), r.employee.age_range ? t(`incidents.ageRanges.${r.employee.age_range}`) : '');
  pdf.heading(t('incidents.osha.report301.treatmentInfo'));
  pdf.field(t('incidents.victim.treatment'), r.treatment.treatment ?? '');
  pdf.field(t('incidents.osha.report301.emergencyRoom'), yes(r.treatment.taken_to_hospital));
  pdf.heading(t('incidents.osha.report301.caseInfo'));
  const c = r.case;
  pdf.field(t('incidents.osha.fields.caseNumber'), `${c.case_number} (${r.incident_serial})`);
  pdf.field(t('incidents.osha.report301.dateOfInjury'), c.date_of_injury);
  pdf.field(t('incidents.osha.report301.timeOfEvent'), c.time_of_event);
  pdf.field(t('incidents.osha.report301.whatHappened'), c.what_happened);
  pdf.field(
    t('incidents.osha.report301.injury'),
    [c.injury, c.body_parts.map((p) => t(`incidents.bodyParts.${p}`)).join(', ')].filter(Boolean).join(' — '),
  );
  pdf.field(t('incidents.osha.report301.actionTaken'), c.action_taken);
  pdf.field(t('incidents.osha.fields.classification'), t(`incidents.osha.classifications.${c.classification}`));
  pdf.field(
    `${t('incidents.osha.fields.daysAway')} · ${t('incidents.osha.fields.daysRestricted')}`,
    `${c.days_away} · ${c.days_restricted}`,
  );
  pdf.field(t('incidents.osha.fields.injuryType'), t(`incidents.osha.injuryTypes.${c.injury_type}`));
  if (c.date_of_death) pdf.field(t('incidents.osha.fields.dateOfDeath'), c.date_of_death);
  const bytes = await pdf.finish((page, pages) => t('incidents.report.page', { page, pages }));
  return inline(bytes, `OSHA-301-${c.case_number}.pdf`);
}
