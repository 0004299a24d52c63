import type { Language } from '../constants.js';

/**
 * The permit scenarios beyond the request, approval and rejection of the first catalogue (issue 16):
 * drafts shared, extensions, revocation, the end of the work time (pending closure, overdue) and
 * closing. Kept here to keep the catalogue file readable; `catalogue.ts` spreads them into its list.
 * The review engine tells the reviewers it asks and the permit's owner of each decision (module
 * "Reviews"); these tell the people the permit concerns beyond them: the requester, the issuing
 * officers and the site's head of safety.
 */

type MailerText = { subject: string; in_app: string; body: string };
const t = (subject: string, in_app: string, body: string): MailerText => ({ subject, in_app, body });
const S = (variables: readonly string[], required: readonly string[], defaults: Record<Language, MailerText>) => ({
  variables: ['user_name', 'organization_name', ...variables],
  required,
  mandatory: false,
  defaults,
});

export const PERMIT_MAIL_SCENARIOS = {
  permit_draft_shared: S(['permit_id', 'shared_by', 'permit_link'], ['permit_id', 'permit_link'], {
    en: t(
      'Permit draft [permit_id] shared with you',
      '[shared_by] shared the draft [permit_id] with you',
      'Hello [user_name],\n\n[shared_by] shared the permit draft [permit_id] with you. You may open it, complete it and submit it: [permit_link]',
    ),
    es: t(
      'Borrador de permiso [permit_id] compartido con usted',
      '[shared_by] compartió con usted el borrador [permit_id]',
      'Hola [user_name]:\n\n[shared_by] compartió con usted el borrador de permiso [permit_id]. Puede abrirlo, completarlo y enviarlo: [permit_link]',
    ),
    tr: t(
      '[permit_id] izin taslağı sizinle paylaşıldı',
      '[shared_by], [permit_id] taslağını sizinle paylaştı',
      'Merhaba [user_name],\n\n[shared_by], [permit_id] izin taslağını sizinle paylaştı. Açabilir, tamamlayabilir ve gönderebilirsiniz: [permit_link]',
    ),
    zh: t(
      '许可证草稿 [permit_id] 已与您共享',
      '[shared_by] 与您共享了草稿 [permit_id]',
      '[user_name]，您好：\n\n[shared_by] 与您共享了许可证草稿 [permit_id]。您可以打开、完善并提交：[permit_link]',
    ),
  }),
  permit_extension_requested: S(['permit_id', 'requestor_name', 'site_name', 'permit_link'], ['permit_id', 'permit_link'], {
    en: t(
      'Extension of permit [permit_id] requested',
      '[requestor_name] asked to extend [permit_id]',
      'Hello [user_name],\n\n[requestor_name] asked for more time on permit [permit_id] at [site_name]. The extension awaits its approval: [permit_link]',
    ),
    es: t(
      'Solicitada la prórroga del permiso [permit_id]',
      '[requestor_name] pidió prorrogar [permit_id]',
      'Hola [user_name]:\n\n[requestor_name] pidió más tiempo para el permiso [permit_id] en [site_name]. La prórroga espera su aprobación: [permit_link]',
    ),
    tr: t(
      '[permit_id] izni için uzatma talep edildi',
      '[requestor_name], [permit_id] için uzatma istedi',
      'Merhaba [user_name],\n\n[requestor_name], [site_name] konumundaki [permit_id] izni için ek süre istedi. Uzatma onay bekliyor: [permit_link]',
    ),
    zh: t(
      '许可证 [permit_id] 已申请延期',
      '[requestor_name] 申请延长 [permit_id]',
      '[user_name]，您好：\n\n[requestor_name] 为 [site_name] 的许可证 [permit_id] 申请了更多时间，延期正在等待批准：[permit_link]',
    ),
  }),
  permit_extended: S(['permit_id', 'end_time', 'permit_link'], ['permit_id', 'end_time', 'permit_link'], {
    en: t(
      'Permit [permit_id] extended',
      '[permit_id] now ends [end_time]',
      'Hello [user_name],\n\nThe extension of permit [permit_id] was approved. The work may go on until [end_time].\nDetails: [permit_link]',
    ),
    es: t(
      'Permiso [permit_id] prorrogado',
      '[permit_id] termina ahora el [end_time]',
      'Hola [user_name]:\n\nSe aprobó la prórroga del permiso [permit_id]. El trabajo puede continuar hasta el [end_time].\nDetalles: [permit_link]',
    ),
    tr: t(
      '[permit_id] izni uzatıldı',
      '[permit_id] artık [end_time] tarihinde bitiyor',
      'Merhaba [user_name],\n\n[permit_id] izninin uzatması onaylandı. İş [end_time] tarihine kadar sürebilir.\nAyrıntılar: [permit_link]',
    ),
    zh: t(
      '许可证 [permit_id] 已延期',
      '[permit_id] 现在于 [end_time] 结束',
      '[user_name]，您好：\n\n许可证 [permit_id] 的延期已批准，作业可持续到 [end_time]。\n详情：[permit_link]',
    ),
  }),
  permit_revoked: S(['permit_id', 'revoked_by', 'reason', 'permit_link'], ['permit_id', 'reason', 'permit_link'], {
    en: t(
      'Permit [permit_id] revoked: stop the work',
      '[revoked_by] revoked [permit_id]',
      'Hello [user_name],\n\n[revoked_by] revoked permit [permit_id]. The work must stop now.\nReason: [reason]\nDetails: [permit_link]',
    ),
    es: t(
      'Permiso [permit_id] revocado: detenga el trabajo',
      '[revoked_by] revocó [permit_id]',
      'Hola [user_name]:\n\n[revoked_by] revocó el permiso [permit_id]. El trabajo debe detenerse ya.\nMotivo: [reason]\nDetalles: [permit_link]',
    ),
    tr: t(
      '[permit_id] izni iptal edildi: işi durdurun',
      '[revoked_by], [permit_id] iznini iptal etti',
      'Merhaba [user_name],\n\n[revoked_by], [permit_id] iznini iptal etti. İş hemen durmalıdır.\nGerekçe: [reason]\nAyrıntılar: [permit_link]',
    ),
    zh: t(
      '许可证 [permit_id] 已撤销：请停止作业',
      '[revoked_by] 撤销了 [permit_id]',
      '[user_name]，您好：\n\n[revoked_by] 撤销了许可证 [permit_id]，作业必须立即停止。\n原因：[reason]\n详情：[permit_link]',
    ),
  }),
  permit_pending_closure: S(['permit_id', 'site_name', 'end_time', 'permit_link'], ['permit_id', 'permit_link'], {
    en: t(
      'Permit [permit_id]: the work time has ended',
      '[permit_id] ended [end_time]: close it',
      'Hello [user_name],\n\nThe work time of permit [permit_id] at [site_name] ended [end_time]. Close the permit with its closure checklist, or ask for an extension: [permit_link]',
    ),
    es: t(
      'Permiso [permit_id]: terminó el horario de trabajo',
      '[permit_id] terminó el [end_time]: ciérrelo',
      'Hola [user_name]:\n\nEl horario de trabajo del permiso [permit_id] en [site_name] terminó el [end_time]. Cierre el permiso con su lista de cierre o pida una prórroga: [permit_link]',
    ),
    tr: t(
      '[permit_id] izni: çalışma süresi bitti',
      '[permit_id] [end_time] tarihinde bitti: kapatın',
      'Merhaba [user_name],\n\n[site_name] konumundaki [permit_id] izninin çalışma süresi [end_time] tarihinde bitti. İzni kapanış kontrol listesiyle kapatın veya uzatma isteyin: [permit_link]',
    ),
    zh: t(
      '许可证 [permit_id]：作业时间已结束',
      '[permit_id] 已于 [end_time] 结束：请关闭',
      '[user_name]，您好：\n\n[site_name] 的许可证 [permit_id] 的作业时间已于 [end_time] 结束。请按关闭检查表关闭许可证，或申请延期：[permit_link]',
    ),
  }),
  permit_overdue: S(['permit_id', 'site_name', 'end_time', 'permit_link'], ['permit_id', 'permit_link'], {
    en: t(
      'Permit [permit_id] is overdue',
      '[permit_id] is still open after its end',
      'Hello [user_name],\n\nPermit [permit_id] at [site_name] ended [end_time] and is still not closed. Check the work area and close the permit: [permit_link]',
    ),
    es: t(
      'El permiso [permit_id] está vencido',
      '[permit_id] sigue abierto tras su fin',
      'Hola [user_name]:\n\nEl permiso [permit_id] en [site_name] terminó el [end_time] y aún no está cerrado. Revise la zona de trabajo y cierre el permiso: [permit_link]',
    ),
    tr: t(
      '[permit_id] izninin süresi geçti',
      '[permit_id] bitişinden sonra hâlâ açık',
      'Merhaba [user_name],\n\n[site_name] konumundaki [permit_id] izni [end_time] tarihinde bitti ve hâlâ kapatılmadı. Çalışma alanını kontrol edip izni kapatın: [permit_link]',
    ),
    zh: t(
      '许可证 [permit_id] 已逾期',
      '[permit_id] 结束后仍未关闭',
      '[user_name]，您好：\n\n[site_name] 的许可证 [permit_id] 已于 [end_time] 结束，但仍未关闭。请检查作业区域并关闭许可证：[permit_link]',
    ),
  }),
  permit_closed: S(['permit_id', 'closed_by', 'permit_link'], ['permit_id', 'permit_link'], {
    en: t(
      'Permit [permit_id] closed',
      '[closed_by] closed [permit_id]',
      'Hello [user_name],\n\n[closed_by] closed permit [permit_id] with its closure checklist.\nDetails: [permit_link]',
    ),
    es: t(
      'Permiso [permit_id] cerrado',
      '[closed_by] cerró [permit_id]',
      'Hola [user_name]:\n\n[closed_by] cerró el permiso [permit_id] con su lista de cierre.\nDetalles: [permit_link]',
    ),
    tr: t(
      '[permit_id] izni kapatıldı',
      '[closed_by], [permit_id] iznini kapattı',
      'Merhaba [user_name],\n\n[closed_by], [permit_id] iznini kapanış kontrol listesiyle kapattı.\nAyrıntılar: [permit_link]',
    ),
    zh: t(
      '许可证 [permit_id] 已关闭',
      '[closed_by] 关闭了 [permit_id]',
      '[user_name]，您好：\n\n[closed_by] 已按关闭检查表关闭许可证 [permit_id]。\n详情：[permit_link]',
    ),
  }),
};

/** Names of the permit scenarios on the mailers screen, per language (merged into `mailers.scenarios`). */
export const PERMIT_MAIL_SCENARIO_NAMES: Record<Language, Record<keyof typeof PERMIT_MAIL_SCENARIOS, string>> = {
  en: {
    permit_draft_shared: 'Permit draft shared',
    permit_extension_requested: 'Permit extension requested',
    permit_extended: 'Permit extended',
    permit_revoked: 'Permit revoked',
    permit_pending_closure: 'Permit pending closure',
    permit_overdue: 'Permit overdue',
    permit_closed: 'Permit closed',
  },
  es: {
    permit_draft_shared: 'Borrador de permiso compartido',
    permit_extension_requested: 'Prórroga de permiso solicitada',
    permit_extended: 'Permiso prorrogado',
    permit_revoked: 'Permiso revocado',
    permit_pending_closure: 'Permiso pendiente de cierre',
    permit_overdue: 'Permiso vencido',
    permit_closed: 'Permiso cerrado',
  },
  tr: {
    permit_draft_shared: 'İzin taslağı paylaşıldı',
    permit_extension_requested: 'İzin uzatması talep edildi',
    permit_extended: 'İzin uzatıldı',
    permit_revoked: 'İzin iptal edildi',
    permit_pending_closure: 'İzin kapanış bekliyor',
    permit_overdue: 'İzin süresi geçti',
    permit_closed: 'İzin kapatıldı',
  },
  zh: {
    permit_draft_shared: '许可证草稿已共享',
    permit_extension_requested: '许可证已申请延期',
    permit_extended: '许可证已延期',
    permit_revoked: '许可证已撤销',
    permit_pending_closure: '许可证待关闭',
    permit_overdue: '许可证已逾期',
    permit_closed: '许可证已关闭',
  },
};
