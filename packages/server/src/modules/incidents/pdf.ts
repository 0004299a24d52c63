import { translate, type Incident, type Language } from '@bulwark/domain';
import { newPdf } from './pdf-kit.js';

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The incident as a printable A4 report in `lang`: the report and its victims, the investigation
 * (team, facts, key factors with their why-why chains and root causes, conclusion), the CAPA actions
 * with their status, the review timeline and the closure.
 */
export async function renderIncidentPdf(o: Incident, lang: Language, now = new Date()): Promise<{ bytes: Buffer; fileName: string }> {
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  const yes = (b: boolean) => t(b ? 'incidents.fields.yes' : 'incidents.fields.no');
  const pdf = await newPdf(`${t('incidents.report.title')} ${o.serial_label}`);
  const { doc, write, heading, field, table } = pdf;

  write('bold', 18, `${t('incidents.report.title')} ${o.serial_label}`);
  doc.fillColor('#555');
  write('body', 9, t('incidents.report.generated', { date: utc(now.toISOString()) }));
  const inv = o.investigation;
  write(
    'body',
    9,
    t('incidents.report.stepOf', { step: inv.current_step, name: t(`incidents.steps.${inv.steps[inv.current_step - 1]!.key}`) }),
  );
  doc.fillColor('#000');

  heading(t('incidents.stepGroups.report'));
  field(t('incidents.fields.status'), `${t(`incidents.statuses.${o.status}`)} · ${t(`incidents.investigationStates.${inv.state}`)}`);
  field(t('incidents.fields.type'), [t(`categories.types.${o.type}`), o.category?.name].filter(Boolean).join(' / '));
  field(t('incidents.fields.site'), [o.site.name, o.site_node?.full_name].filter(Boolean).join(' — '));
  field(t('incidents.fields.occurredAt'), `${o.occurred_at.replace('T', ' ')} (${o.site.time_zone})`);
  field(t('incidents.fields.shift'), o.shift ? t(`incidents.shifts.${o.shift}`) : '');
  field(
    `${t('incidents.fields.severity')} · ${t('incidents.fields.likelihood')}`,
    o.rating_pending
      ? t('incidents.ratingPending')
      : `${t(`incidents.severities.${o.severity}`)} · ${t(`incidents.likelihoods.${o.likelihood}`)} — ${t('incidents.fields.riskScore')} ${o.risk_score} (${t(`incidents.riskLevels.${o.risk_level}`)})`,
  );
  field(t('incidents.fields.description'), o.description);
  field(t('incidents.fields.actionTaken'), o.action_taken);
  field(t('incidents.fields.investigationRequired'), yes(o.investigation_required));
  field(
    t('incidents.fields.reporter'),
    o.reporter ? [o.reporter.full_name || t('incidents.guestReporter'), o.reporter.email].filter(Boolean).join(' · ') : '',
  );
  field(t('incidents.fields.createdAt'), utc(o.created_at));

  heading(t('incidents.fields.victims'));
  if (o.victims.length === 0) write('body', 9.5, t('incidents.report.noVictims'));
  else
    table(
      [
        { label: t('incidents.victim.name'), width: 0.16 },
        { label: t('incidents.victim.type'), width: 0.11 },
        { label: t('incidents.victim.gender'), width: 0.09 },
        { label: t('incidents.victim.ageRange'), width: 0.09 },
        { label: t('incidents.victim.bodyParts'), width: 0.18 },
        { label: t('incidents.victim.injuryDetails'), width: 0.2 },
        { label: t('incidents.victim.takenToHospital'), width: 0.08 },
        { label: t('incidents.victim.returnToWorkDate'), width: 0.09 },
      ],
      o.victims.map((v) => [
        [v.name, v.employee_id].filter(Boolean).join(' · '),
        t(`incidents.victimTypes.${v.type}`),
        t(`incidents.genders.${v.gender}`),
        v.age_range ? t(`incidents.ageRanges.${v.age_range}`) : '—',
        v.body_parts.map((p) => t(`incidents.bodyParts.${p}`)).join(', ') || '—',
        [v.injury_details, v.treatment].filter(Boolean).join(' — ') || '—',
        yes(v.taken_to_hospital),
        v.return_to_work_date ?? '—',
      ]),
    );
  heading(t('incidents.fields.attachments'));
  const files = [...o.attachments, ...inv.evidence];
  if (files.length === 0) write('body', 9.5, t('incidents.report.noAttachments'));
  for (const a of files) write('body', 9.5, `• ${a.file_name} (${Math.max(1, Math.round(a.size_bytes / 1024))} KB)`);

  if (o.investigation_required) {
    heading(t('incidents.stepGroups.team'));
    field(t('incidents.fields.lead'), inv.lead?.full_name ?? '');
    field(t('incidents.fields.members'), inv.members.map((m) => m.full_name).join(', '));
    field(t('incidents.fields.targetDate'), inv.target_date ?? '');

    heading(t('incidents.fields.timeline'));
    if (inv.timeline.length === 0) write('body', 9.5, t('incidents.report.noTimeline'));
    else
      table(
        [
          { label: t('incidents.timeline.at'), width: 0.2 },
          { label: t('incidents.timeline.description'), width: 0.8 },
        ],
        inv.timeline.map((e) => [e.at.replace('T', ' '), e.description]),
      );
    heading(t('incidents.fields.witnesses'));
    if (inv.witnesses.length === 0) write('body', 9.5, t('incidents.report.noWitnesses'));
    for (const w of inv.witnesses) field([w.name, w.contact].filter(Boolean).join(' · '), w.statement);

    heading(t('incidents.stepGroups.analysis'));
    if (inv.factors.length === 0) write('body', 9.5, t('incidents.report.noFactors'));
    for (const f of inv.factors) {
      write('bold', 10, `${t(`incidents.keyFactors.${f.category}`)}: ${f.description}`);
      f.whys.forEach((w, i) => write('body', 9.5, `${'  '.repeat(i + 1)}${i + 1}. ${w}`));
      for (const c of f.root_causes) write('body', 9.5, `  → ${t('incidents.fields.rootCauses')}: ${c.path.join(' › ')}`);
      doc.moveDown(0.3);
    }
  }

  heading(t('incidents.fields.actions'));
  if (o.actions.length === 0) write('body', 9.5, t('incidents.report.noActions'));
  else
    table(
      [
        { label: t('incidents.actionColumns.serial'), width: 0.07 },
        { label: t('incidents.actionColumns.kind'), width: 0.12 },
        { label: t('incidents.actionColumns.description'), width: 0.33 },
        { label: t('incidents.actionColumns.controlType'), width: 0.13 },
        { label: t('incidents.actionColumns.responsible'), width: 0.14 },
        { label: t('incidents.actionColumns.dueDate'), width: 0.1 },
        { label: t('incidents.actionColumns.status'), width: 0.11 },
      ],
      o.actions.map((a) => [
        `#${a.serial}`,
        a.capa_kind ? t(`incidents.capaKinds.${a.capa_kind}`) : '—',
        a.description,
        t(`actions.controlType.${a.control_type}`),
        a.responsible?.full_name ?? '—',
        a.due_date,
        t(`actions.status.${a.status}`),
      ]),
    );

  if (o.investigation_required) {
    heading(t('incidents.steps.record'));
    field(t('incidents.fields.conclusion'), inv.conclusion ?? '');
    field(t('incidents.fields.lessonsLearned'), inv.lessons_learned ?? '');
    heading(t('incidents.fields.review'));
    const review = inv.review;
    if (!review) write('body', 9.5, t('incidents.report.noReview'));
    else {
      write(
        'body',
        9.5,
        `${t(`incidents.report.reviewOutcomes.${review.outcome}`)} · ${t('incidents.report.round', { round: review.round })}${review.workflow ? ` · ${review.workflow.title}` : ''}`,
      );
      doc.moveDown(0.3);
      table(
        [
          { label: t('incidents.timeline.at'), width: 0.18 },
          { label: t('incidents.fields.review'), width: 0.2 },
          { label: t('incidents.fields.reporter'), width: 0.22 },
          { label: t('incidents.fields.message'), width: 0.4 },
        ],
        review.timeline.map((e) => [
          `${utc(e.at)} · ${t('incidents.report.round', { round: e.round })}`,
          t(`incidents.report.reviewEvents.${e.kind}`),
          [e.actor?.full_name, e.reviewer && e.reviewer.id !== e.actor?.id ? e.reviewer.full_name : null].filter(Boolean).join(' / ') ||
            '—',
          e.comment ?? '',
        ]),
      );
    }
  }
  if (o.status === 'closed') {
    heading(t('incidents.stepGroups.review'));
    field(t('incidents.fields.closedBy'), o.closed_by?.full_name ?? '');
    field(t('incidents.fields.closedAt'), o.closed_at ? utc(o.closed_at) : '');
    field(t('incidents.fields.closingRemarks'), o.closing_remarks ?? '');
  }
  const bytes = await pdf.finish((page, pages) => t('incidents.report.page', { page, pages }));
  return { bytes, fileName: `${o.serial_label}.pdf` };
}
