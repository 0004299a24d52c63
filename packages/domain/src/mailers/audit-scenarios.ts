import type { Language } from '../constants.js';

/**
 * The audit scenarios beyond "scheduled" and "approved" of the first catalogue (issue 17): an audit
 * turned overdue, a failed critical question (told at once to the site's head of safety, while the
 * audit runs), the notice a question sends on an answer, and the report mailed with its PDF. Kept here
 * to keep the catalogue file readable; `catalogue.ts` spreads them into its list. The review engine
 * tells reviewers and the auditor of each decision (module "Reviews").
 */

type MailerText = { subject: string; in_app: string; body: string };
const t = (subject: string, in_app: string, body: string): MailerText => ({ subject, in_app, body });
const S = (variables: readonly string[], required: readonly string[], defaults: Record<Language, MailerText>) => ({
  variables: ['user_name', 'organization_name', ...variables],
  required,
  mandatory: false,
  defaults,
});

export const AUDIT_MAIL_SCENARIOS = {
  audit_overdue: S(['audit_title', 'site_name', 'due_date', 'audit_link'], ['audit_title', 'audit_link'], {
    en: t(
      'Audit overdue: [audit_title]',
      'The audit "[audit_title]" at [site_name] is overdue',
      'Hello [user_name],\n\nThe audit "[audit_title]" at [site_name], due [due_date], was not completed within its window and is now overdue.\nOpen it here: [audit_link]',
    ),
    es: t(
      'Auditoría vencida: [audit_title]',
      'La auditoría "[audit_title]" en [site_name] está vencida',
      'Hola [user_name]:\n\nLa auditoría "[audit_title]" en [site_name], prevista para el [due_date], no se completó en su plazo y ahora está vencida.\nÁbrala aquí: [audit_link]',
    ),
    tr: t(
      'Geciken denetim: [audit_title]',
      '[site_name] konumundaki "[audit_title]" denetimi gecikti',
      'Merhaba [user_name],\n\n[site_name] konumundaki, [due_date] tarihli "[audit_title]" denetimi süresi içinde tamamlanmadı ve artık gecikmiş durumda.\nBuradan açın: [audit_link]',
    ),
    zh: t(
      '审核已逾期：[audit_title]',
      '[site_name] 的审核“[audit_title]”已逾期',
      '[user_name]，您好：\n\n[site_name] 的审核“[audit_title]”（计划日期 [due_date]）未在期限内完成，现已逾期。\n在此打开：[audit_link]',
    ),
  }),
  audit_critical_failure: S(['audit_title', 'site_name', 'question', 'answer', 'auditor_name', 'audit_link'], ['question', 'audit_link'], {
    en: t(
      'Critical failure in audit [audit_title]',
      'Critical question failed at [site_name]: [question]',
      'Hello [user_name],\n\nWhile auditing "[audit_title]" at [site_name], [auditor_name] answered a critical question:\n[question]\nAnswer: [answer]\nThe audit is still running. Open it here: [audit_link]',
    ),
    es: t(
      'No conformidad crítica en la auditoría [audit_title]',
      'Pregunta crítica no conforme en [site_name]: [question]',
      'Hola [user_name]:\n\nDurante la auditoría "[audit_title]" en [site_name], [auditor_name] respondió a una pregunta crítica:\n[question]\nRespuesta: [answer]\nLa auditoría sigue en curso. Ábrala aquí: [audit_link]',
    ),
    tr: t(
      '[audit_title] denetiminde kritik uygunsuzluk',
      '[site_name] konumunda kritik soru uygunsuz: [question]',
      'Merhaba [user_name],\n\n[site_name] konumundaki "[audit_title]" denetiminde [auditor_name] kritik bir soruyu yanıtladı:\n[question]\nYanıt: [answer]\nDenetim hâlâ devam ediyor. Buradan açın: [audit_link]',
    ),
    zh: t(
      '审核 [audit_title] 中出现关键不符合',
      '[site_name] 的关键问题不符合：[question]',
      '[user_name]，您好：\n\n在 [site_name] 进行审核“[audit_title]”时，[auditor_name] 回答了一个关键问题：\n[question]\n回答：[answer]\n审核仍在进行中。在此打开：[audit_link]',
    ),
  }),
  audit_answer_notice: S(['audit_title', 'site_name', 'question', 'answer', 'auditor_name', 'audit_link'], ['question', 'audit_link'], {
    en: t(
      'Audit [audit_title]: [question]',
      '[auditor_name] answered "[question]" at [site_name]',
      'Hello [user_name],\n\nIn the audit "[audit_title]" at [site_name], [auditor_name] answered:\n[question]\nAnswer: [answer]\nOpen the audit here: [audit_link]',
    ),
    es: t(
      'Auditoría [audit_title]: [question]',
      '[auditor_name] respondió "[question]" en [site_name]',
      'Hola [user_name]:\n\nEn la auditoría "[audit_title]" en [site_name], [auditor_name] respondió:\n[question]\nRespuesta: [answer]\nAbra la auditoría aquí: [audit_link]',
    ),
    tr: t(
      '[audit_title] denetimi: [question]',
      '[auditor_name], [site_name] konumunda "[question]" sorusunu yanıtladı',
      'Merhaba [user_name],\n\n[site_name] konumundaki "[audit_title]" denetiminde [auditor_name] şunu yanıtladı:\n[question]\nYanıt: [answer]\nDenetimi buradan açın: [audit_link]',
    ),
    zh: t(
      '审核 [audit_title]：[question]',
      '[auditor_name] 在 [site_name] 回答了“[question]”',
      '[user_name]，您好：\n\n在 [site_name] 的审核“[audit_title]”中，[auditor_name] 回答了：\n[question]\n回答：[answer]\n在此打开审核：[audit_link]',
    ),
  }),
  audit_report_sent: S(['audit_title', 'sender_name', 'message', 'audit_link'], ['audit_title'], {
    en: t(
      'Audit report: [audit_title]',
      '[sender_name] sent you the report of "[audit_title]"',
      'Hello [user_name],\n\n[sender_name] sends you the report of the audit "[audit_title]", attached as a PDF.\n[message]\nThe audit in the app: [audit_link]',
    ),
    es: t(
      'Informe de auditoría: [audit_title]',
      '[sender_name] le envió el informe de "[audit_title]"',
      'Hola [user_name]:\n\n[sender_name] le envía el informe de la auditoría "[audit_title]", adjunto en PDF.\n[message]\nLa auditoría en la aplicación: [audit_link]',
    ),
    tr: t(
      'Denetim raporu: [audit_title]',
      '[sender_name] size "[audit_title]" raporunu gönderdi',
      'Merhaba [user_name],\n\n[sender_name] size "[audit_title]" denetiminin raporunu PDF eki olarak gönderiyor.\n[message]\nUygulamadaki denetim: [audit_link]',
    ),
    zh: t(
      '审核报告：[audit_title]',
      '[sender_name] 向您发送了“[audit_title]”的报告',
      '[user_name]，您好：\n\n[sender_name] 向您发送审核“[audit_title]”的报告，见 PDF 附件。\n[message]\n应用中的审核：[audit_link]',
    ),
  }),
};

/** Names of the audit scenarios on the mailers screen, per language (merged into `mailers.scenarios`). */
export const AUDIT_MAIL_SCENARIO_NAMES: Record<Language, Record<keyof typeof AUDIT_MAIL_SCENARIOS, string>> = {
  en: {
    audit_overdue: 'Audit overdue',
    audit_critical_failure: 'Critical question failed',
    audit_answer_notice: 'Audit answer notice',
    audit_report_sent: 'Audit report sent',
  },
  es: {
    audit_overdue: 'Auditoría vencida',
    audit_critical_failure: 'Pregunta crítica no conforme',
    audit_answer_notice: 'Aviso de respuesta de auditoría',
    audit_report_sent: 'Informe de auditoría enviado',
  },
  tr: {
    audit_overdue: 'Denetim gecikti',
    audit_critical_failure: 'Kritik soru uygunsuz',
    audit_answer_notice: 'Denetim yanıtı bildirimi',
    audit_report_sent: 'Denetim raporu gönderildi',
  },
  zh: {
    audit_overdue: '审核已逾期',
    audit_critical_failure: '关键问题不符合',
    audit_answer_notice: '审核回答通知',
    audit_report_sent: '审核报告已发送',
  },
};

/** Preview values of the variables only these scenarios use. */
export const AUDIT_MAIL_SAMPLE_VALUES: Record<string, string> = {
  question: 'Are the fire exits clear of obstructions?',
  answer: 'No',
  auditor_name: 'Jordan Kim',
};
