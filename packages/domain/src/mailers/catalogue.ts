import type { Language } from '../constants.js';
import { AUDIT_MAIL_SAMPLE_VALUES, AUDIT_MAIL_SCENARIOS } from './audit-scenarios.js';
import { PERMIT_MAIL_SCENARIOS } from './permit-scenarios.js';

/**
 * The mail content catalogue (spec 001 §2 "mail content management", §3 "Mail template"): the modules
 * whose events send mail, their scenarios, the bracketed variables each scenario may use, the ones its
 * body must keep (§5: "bracketed variables must not be removed"), and the default texts per language.
 * An organisation overrides the texts per scenario and language; the defaults live here, in code, so a
 * new scenario needs no data migration.
 */

export type MailerText = { subject: string; in_app: string; body: string };

type ScenarioDef = {
  /** Variables the texts may use; [organization_name] is filled by the sender itself. */
  variables: readonly string[];
  /** Variables the body must keep. */
  required: readonly string[];
  /** Sent whatever the recipient's e-mail subscriptions say (invitations, one-time codes). */
  mandatory: boolean;
  defaults: Record<Language, MailerText>;
};

const S = (
  variables: readonly string[],
  required: readonly string[],
  mandatory: boolean,
  defaults: Record<Language, MailerText>,
): ScenarioDef => ({ variables: ['user_name', 'organization_name', ...variables], required, mandatory, defaults });

const t = (subject: string, in_app: string, body: string): MailerText => ({ subject, in_app, body });

/** The footer every scenario starts with, per language. */
export const MAILER_DEFAULT_FOOTER: Record<Language, string> = {
  en: '[organization_name] EHS team. You receive this e-mail because of your role in [organization_name]; choose which e-mails you receive under E-mail subscriptions.',
  es: 'Equipo EHS de [organization_name]. Recibe este correo por su función en [organization_name]; elija qué correos recibe en Suscripciones de correo.',
  tr: '[organization_name] İSG ekibi. Bu e-postayı [organization_name] içindeki rolünüz nedeniyle alıyorsunuz; hangi e-postaları alacağınızı E-posta abonelikleri bölümünden seçin.',
  zh: '[organization_name] EHS 团队。您因在 [organization_name] 中的职责而收到此邮件；可在“邮件订阅”中选择接收哪些邮件。',
};

const SCENARIOS = {
  user_invited: S(['inviter_name', 'invite_link'], ['invite_link'], true, {
    en: t(
      'You are invited to [organization_name]',
      '[inviter_name] invited you to [organization_name]',
      'Hello [user_name],\n\n[inviter_name] invited you to join [organization_name] on the EHS platform.\nSet your password and sign in here: [invite_link]',
    ),
    es: t(
      'Invitación a [organization_name]',
      '[inviter_name] le invitó a [organization_name]',
      'Hola [user_name]:\n\n[inviter_name] le invitó a unirse a [organization_name] en la plataforma EHS.\nDefina su contraseña e inicie sesión aquí: [invite_link]',
    ),
    tr: t(
      '[organization_name] davetiniz',
      '[inviter_name] sizi [organization_name] kuruluşuna davet etti',
      'Merhaba [user_name],\n\n[inviter_name] sizi İSG platformunda [organization_name] kuruluşuna katılmaya davet etti.\nŞifrenizi belirleyip buradan giriş yapın: [invite_link]',
    ),
    zh: t(
      '您已受邀加入 [organization_name]',
      '[inviter_name] 邀请您加入 [organization_name]',
      '[user_name]，您好：\n\n[inviter_name] 邀请您加入 EHS 平台上的 [organization_name]。\n请在此设置密码并登录：[invite_link]',
    ),
  }),
  user_role_changed: S(['role_name'], ['role_name'], false, {
    en: t(
      'Your role changed',
      'Your role is now [role_name]',
      'Hello [user_name],\n\nYour role in [organization_name] is now [role_name]. Your screens follow the rights of this role.',
    ),
    es: t(
      'Su rol ha cambiado',
      'Su rol ahora es [role_name]',
      'Hola [user_name]:\n\nSu rol en [organization_name] ahora es [role_name]. Sus pantallas siguen los permisos de este rol.',
    ),
    tr: t(
      'Rolünüz değişti',
      'Rolünüz artık [role_name]',
      'Merhaba [user_name],\n\n[organization_name] içindeki rolünüz artık [role_name]. Ekranlarınız bu rolün yetkilerine göre değişir.',
    ),
    zh: t(
      '您的角色已变更',
      '您的角色现在是 [role_name]',
      '[user_name]，您好：\n\n您在 [organization_name] 中的角色现在是 [role_name]。您可见的页面随该角色的权限而定。',
    ),
  }),
  observation_reported: S(
    ['observation_id', 'site_name', 'risk_level', 'reporter_name', 'observation_link'],
    ['observation_id', 'observation_link'],
    false,
    {
      en: t(
        'Observation [observation_id] reported at [site_name]',
        'New observation [observation_id] at [site_name]',
        'Hello [user_name],\n\n[reporter_name] reported observation [observation_id] at [site_name] with risk level [risk_level].\nReview it here: [observation_link]',
      ),
      es: t(
        'Observación [observation_id] registrada en [site_name]',
        'Nueva observación [observation_id] en [site_name]',
        'Hola [user_name]:\n\n[reporter_name] registró la observación [observation_id] en [site_name] con nivel de riesgo [risk_level].\nRevísela aquí: [observation_link]',
      ),
      tr: t(
        '[site_name] konumunda [observation_id] gözlemi bildirildi',
        '[site_name] konumunda yeni gözlem [observation_id]',
        'Merhaba [user_name],\n\n[reporter_name], [site_name] konumunda [risk_level] risk seviyesiyle [observation_id] gözlemini bildirdi.\nBuradan inceleyin: [observation_link]',
      ),
      zh: t(
        '[site_name] 上报了观察 [observation_id]',
        '[site_name] 有新观察 [observation_id]',
        '[user_name]，您好：\n\n[reporter_name] 在 [site_name] 上报了观察 [observation_id]，风险等级为 [risk_level]。\n请在此查看：[observation_link]',
      ),
    },
  ),
  observation_closed: S(['observation_id', 'closed_by', 'observation_link'], ['observation_id', 'observation_link'], false, {
    en: t(
      'Observation [observation_id] closed',
      'Observation [observation_id] was closed by [closed_by]',
      'Hello [user_name],\n\n[closed_by] closed observation [observation_id].\nDetails: [observation_link]',
    ),
    es: t(
      'Observación [observation_id] cerrada',
      '[closed_by] cerró la observación [observation_id]',
      'Hola [user_name]:\n\n[closed_by] cerró la observación [observation_id].\nDetalles: [observation_link]',
    ),
    tr: t(
      '[observation_id] gözlemi kapatıldı',
      '[observation_id] gözlemi [closed_by] tarafından kapatıldı',
      'Merhaba [user_name],\n\n[closed_by], [observation_id] gözlemini kapattı.\nAyrıntılar: [observation_link]',
    ),
    zh: t(
      '观察 [observation_id] 已关闭',
      '[closed_by] 关闭了观察 [observation_id]',
      '[user_name]，您好：\n\n[closed_by] 关闭了观察 [observation_id]。\n详情：[observation_link]',
    ),
  }),
  action_assigned: S(['action_title', 'due_date', 'assigned_by', 'action_link'], ['due_date', 'action_link'], false, {
    en: t(
      'Action assigned to you: [action_title]',
      '[assigned_by] assigned you an action due [due_date]',
      'Hello [user_name],\n\n[assigned_by] assigned you the action "[action_title]", due [due_date].\nOpen it here: [action_link]',
    ),
    es: t(
      'Acción asignada: [action_title]',
      '[assigned_by] le asignó una acción con vencimiento [due_date]',
      'Hola [user_name]:\n\n[assigned_by] le asignó la acción "[action_title]", con vencimiento [due_date].\nÁbrala aquí: [action_link]',
    ),
    tr: t(
      'Size atanan faaliyet: [action_title]',
      '[assigned_by] size son tarihi [due_date] olan bir faaliyet atadı',
      'Merhaba [user_name],\n\n[assigned_by] size "[action_title]" faaliyetini atadı, son tarih [due_date].\nBuradan açın: [action_link]',
    ),
    zh: t(
      '分配给您的措施：[action_title]',
      '[assigned_by] 给您分配了一项措施，截止 [due_date]',
      '[user_name]，您好：\n\n[assigned_by] 给您分配了措施“[action_title]”，截止日期为 [due_date]。\n在此打开：[action_link]',
    ),
  }),
  action_due_soon: S(['action_title', 'due_date', 'action_link'], ['due_date', 'action_link'], false, {
    en: t(
      'Action due soon: [action_title]',
      'Action "[action_title]" is due [due_date]',
      'Hello [user_name],\n\nThe action "[action_title]" is due [due_date].\nUpdate it here: [action_link]',
    ),
    es: t(
      'Acción próxima a vencer: [action_title]',
      'La acción "[action_title]" vence el [due_date]',
      'Hola [user_name]:\n\nLa acción "[action_title]" vence el [due_date].\nActualícela aquí: [action_link]',
    ),
    tr: t(
      'Süresi yaklaşan faaliyet: [action_title]',
      '"[action_title]" faaliyetinin son tarihi [due_date]',
      'Merhaba [user_name],\n\n"[action_title]" faaliyetinin son tarihi [due_date].\nBuradan güncelleyin: [action_link]',
    ),
    zh: t(
      '措施即将到期：[action_title]',
      '措施“[action_title]”将于 [due_date] 到期',
      '[user_name]，您好：\n\n措施“[action_title]”将于 [due_date] 到期。\n在此更新：[action_link]',
    ),
  }),
  action_overdue: S(['action_title', 'due_date', 'days_overdue', 'action_link'], ['due_date', 'action_link'], false, {
    en: t(
      'Action overdue: [action_title]',
      'Action "[action_title]" is [days_overdue] overdue',
      'Hello [user_name],\n\nThe action "[action_title]" was due [due_date] and is [days_overdue] overdue.\nClose it or update it here: [action_link]',
    ),
    es: t(
      'Acción vencida: [action_title]',
      'La acción "[action_title]" lleva [days_overdue] vencida',
      'Hola [user_name]:\n\nLa acción "[action_title]" vencía el [due_date] y lleva [days_overdue] vencida.\nCiérrela o actualícela aquí: [action_link]',
    ),
    tr: t(
      'Süresi geçen faaliyet: [action_title]',
      '"[action_title]" faaliyeti [days_overdue] gecikti',
      'Merhaba [user_name],\n\n"[action_title]" faaliyetinin son tarihi [due_date] idi ve [days_overdue] gecikti.\nBuradan kapatın veya güncelleyin: [action_link]',
    ),
    zh: t(
      '措施已逾期：[action_title]',
      '措施“[action_title]”已逾期 [days_overdue]',
      '[user_name]，您好：\n\n措施“[action_title]”的截止日期为 [due_date]，已逾期 [days_overdue]。\n请在此关闭或更新：[action_link]',
    ),
  }),
  action_completed: S(['action_title', 'completed_by', 'action_link'], ['action_link'], false, {
    en: t(
      'Action completed: [action_title]',
      '[completed_by] completed "[action_title]"',
      'Hello [user_name],\n\n[completed_by] completed the action "[action_title]".\nReview and close it here: [action_link]',
    ),
    es: t(
      'Acción completada: [action_title]',
      '[completed_by] completó "[action_title]"',
      'Hola [user_name]:\n\n[completed_by] completó la acción "[action_title]".\nRevísela y ciérrela aquí: [action_link]',
    ),
    tr: t(
      'Faaliyet tamamlandı: [action_title]',
      '[completed_by] "[action_title]" faaliyetini tamamladı',
      'Merhaba [user_name],\n\n[completed_by], "[action_title]" faaliyetini tamamladı.\nBuradan inceleyip kapatın: [action_link]',
    ),
    zh: t(
      '措施已完成：[action_title]',
      '[completed_by] 完成了“[action_title]”',
      '[user_name]，您好：\n\n[completed_by] 完成了措施“[action_title]”。\n请在此审核并关闭：[action_link]',
    ),
  }),
  incident_reported: S(
    ['incident_id', 'site_name', 'severity', 'incident_date', 'incident_link'],
    ['incident_id', 'incident_link'],
    false,
    {
      en: t(
        'Incident [incident_id] reported at [site_name]',
        'New [severity] incident [incident_id] at [site_name]',
        'Hello [user_name],\n\nIncident [incident_id] ([severity]) happened at [site_name] on [incident_date].\nOpen the report here: [incident_link]',
      ),
      es: t(
        'Incidente [incident_id] registrado en [site_name]',
        'Nuevo incidente [severity] [incident_id] en [site_name]',
        'Hola [user_name]:\n\nEl incidente [incident_id] ([severity]) ocurrió en [site_name] el [incident_date].\nAbra el informe aquí: [incident_link]',
      ),
      tr: t(
        '[site_name] konumunda [incident_id] olayı bildirildi',
        '[site_name] konumunda yeni [severity] olay [incident_id]',
        'Merhaba [user_name],\n\n[incident_id] olayı ([severity]) [incident_date] tarihinde [site_name] konumunda meydana geldi.\nRaporu buradan açın: [incident_link]',
      ),
      zh: t(
        '[site_name] 上报了事故 [incident_id]',
        '[site_name] 发生新的 [severity] 事故 [incident_id]',
        '[user_name]，您好：\n\n事故 [incident_id]（[severity]）于 [incident_date] 发生在 [site_name]。\n在此打开报告：[incident_link]',
      ),
    },
  ),
  investigation_assigned: S(['incident_id', 'target_date', 'incident_link'], ['incident_id', 'incident_link'], false, {
    en: t(
      'Investigation of incident [incident_id]',
      'You are on the investigation team of [incident_id]',
      'Hello [user_name],\n\nYou are on the investigation team of incident [incident_id]. Target date: [target_date].\nStart here: [incident_link]',
    ),
    es: t(
      'Investigación del incidente [incident_id]',
      'Forma parte del equipo de investigación de [incident_id]',
      'Hola [user_name]:\n\nForma parte del equipo de investigación del incidente [incident_id]. Fecha objetivo: [target_date].\nEmpiece aquí: [incident_link]',
    ),
    tr: t(
      '[incident_id] olayının incelemesi',
      '[incident_id] inceleme ekibindesiniz',
      'Merhaba [user_name],\n\n[incident_id] olayının inceleme ekibindesiniz. Hedef tarih: [target_date].\nBuradan başlayın: [incident_link]',
    ),
    zh: t(
      '事故 [incident_id] 的调查',
      '您已加入 [incident_id] 的调查小组',
      '[user_name]，您好：\n\n您已加入事故 [incident_id] 的调查小组。目标日期：[target_date]。\n从这里开始：[incident_link]',
    ),
  }),
  investigation_overdue: S(
    ['incident_id', 'site_name', 'target_date', 'days_overdue', 'incident_link'],
    ['incident_id', 'incident_link'],
    false,
    {
      en: t(
        'Investigation of incident [incident_id] is overdue',
        'The investigation of [incident_id] passed its target date',
        'Hello [user_name],\n\nThe investigation of incident [incident_id] at [site_name] passed its target date [target_date] ([days_overdue] days ago) and the incident is not closed.\nOpen it here: [incident_link]',
      ),
      es: t(
        'La investigación del incidente [incident_id] está vencida',
        'La investigación de [incident_id] superó su fecha objetivo',
        'Hola [user_name]:\n\nLa investigación del incidente [incident_id] en [site_name] superó su fecha objetivo [target_date] (hace [days_overdue] días) y el incidente no está cerrado.\nÁbralo aquí: [incident_link]',
      ),
      tr: t(
        '[incident_id] olayının incelemesi gecikti',
        '[incident_id] incelemesi hedef tarihini geçti',
        'Merhaba [user_name],\n\n[site_name] tesisindeki [incident_id] olayının incelemesi [target_date] hedef tarihini geçti ([days_overdue] gün önce) ve olay kapatılmadı.\nBuradan açın: [incident_link]',
      ),
      zh: t(
        '事故 [incident_id] 的调查已逾期',
        '[incident_id] 的调查已超过目标日期',
        '[user_name]，您好：\n\n[site_name] 的事故 [incident_id] 的调查已超过目标日期 [target_date]（[days_overdue] 天前），事故尚未关闭。\n在此打开：[incident_link]',
      ),
    },
  ),
  incident_report_sent: S(['incident_id', 'sender_name', 'message', 'incident_link'], ['incident_id'], false, {
    en: t(
      'Incident report [incident_id]',
      '[sender_name] sent you the report of [incident_id]',
      'Hello [user_name],\n\n[sender_name] sent you the report of incident [incident_id]; the PDF is attached.\n[message]\nMembers can open the incident here: [incident_link]',
    ),
    es: t(
      'Informe del incidente [incident_id]',
      '[sender_name] le envió el informe de [incident_id]',
      'Hola [user_name]:\n\n[sender_name] le envió el informe del incidente [incident_id]; el PDF va adjunto.\n[message]\nLos miembros pueden abrir el incidente aquí: [incident_link]',
    ),
    tr: t(
      '[incident_id] olay raporu',
      '[sender_name] size [incident_id] raporunu gönderdi',
      'Merhaba [user_name],\n\n[sender_name] size [incident_id] olayının raporunu gönderdi; PDF ektedir.\n[message]\nÜyeler olayı buradan açabilir: [incident_link]',
    ),
    zh: t(
      '事故报告 [incident_id]',
      '[sender_name] 向您发送了 [incident_id] 的报告',
      '[user_name]，您好：\n\n[sender_name] 向您发送了事故 [incident_id] 的报告，PDF 见附件。\n[message]\n成员可在此打开该事故：[incident_link]',
    ),
  }),
  permit_requested: S(['permit_id', 'requestor_name', 'site_name', 'start_time', 'permit_link'], ['permit_id', 'permit_link'], false, {
    en: t(
      'Permit [permit_id] awaits your approval',
      '[requestor_name] requested permit [permit_id]',
      'Hello [user_name],\n\n[requestor_name] requested permit [permit_id] for work at [site_name] starting [start_time].\nApprove or reject it here: [permit_link]',
    ),
    es: t(
      'El permiso [permit_id] espera su aprobación',
      '[requestor_name] solicitó el permiso [permit_id]',
      'Hola [user_name]:\n\n[requestor_name] solicitó el permiso [permit_id] para trabajos en [site_name] a partir de [start_time].\nApruébelo o recházelo aquí: [permit_link]',
    ),
    tr: t(
      '[permit_id] izni onayınızı bekliyor',
      '[requestor_name] [permit_id] iznini talep etti',
      'Merhaba [user_name],\n\n[requestor_name], [site_name] konumunda [start_time] başlayacak iş için [permit_id] iznini talep etti.\nBuradan onaylayın veya reddedin: [permit_link]',
    ),
    zh: t(
      '许可证 [permit_id] 等待您审批',
      '[requestor_name] 申请了许可证 [permit_id]',
      '[user_name]，您好：\n\n[requestor_name] 申请了许可证 [permit_id]，用于 [site_name] 的作业，开始时间 [start_time]。\n在此批准或驳回：[permit_link]',
    ),
  }),
  permit_approved: S(['permit_id', 'approved_by', 'permit_link'], ['permit_id', 'permit_link'], false, {
    en: t(
      'Permit [permit_id] approved',
      '[approved_by] approved permit [permit_id]',
      'Hello [user_name],\n\n[approved_by] approved permit [permit_id]. Work may start as planned.\nDetails: [permit_link]',
    ),
    es: t(
      'Permiso [permit_id] aprobado',
      '[approved_by] aprobó el permiso [permit_id]',
      'Hola [user_name]:\n\n[approved_by] aprobó el permiso [permit_id]. El trabajo puede empezar según lo previsto.\nDetalles: [permit_link]',
    ),
    tr: t(
      '[permit_id] izni onaylandı',
      '[approved_by] [permit_id] iznini onayladı',
      'Merhaba [user_name],\n\n[approved_by], [permit_id] iznini onayladı. İş planlandığı gibi başlayabilir.\nAyrıntılar: [permit_link]',
    ),
    zh: t(
      '许可证 [permit_id] 已批准',
      '[approved_by] 批准了许可证 [permit_id]',
      '[user_name]，您好：\n\n[approved_by] 批准了许可证 [permit_id]，作业可按计划开始。\n详情：[permit_link]',
    ),
  }),
  permit_rejected: S(['permit_id', 'rejected_by', 'reason', 'permit_link'], ['permit_id', 'reason', 'permit_link'], false, {
    en: t(
      'Permit [permit_id] rejected',
      '[rejected_by] rejected permit [permit_id]',
      'Hello [user_name],\n\n[rejected_by] rejected permit [permit_id].\nReason: [reason]\nDetails: [permit_link]',
    ),
    es: t(
      'Permiso [permit_id] rechazado',
      '[rejected_by] rechazó el permiso [permit_id]',
      'Hola [user_name]:\n\n[rejected_by] rechazó el permiso [permit_id].\nMotivo: [reason]\nDetalles: [permit_link]',
    ),
    tr: t(
      '[permit_id] izni reddedildi',
      '[rejected_by] [permit_id] iznini reddetti',
      'Merhaba [user_name],\n\n[rejected_by], [permit_id] iznini reddetti.\nGerekçe: [reason]\nAyrıntılar: [permit_link]',
    ),
    zh: t(
      '许可证 [permit_id] 被驳回',
      '[rejected_by] 驳回了许可证 [permit_id]',
      '[user_name]，您好：\n\n[rejected_by] 驳回了许可证 [permit_id]。\n原因：[reason]\n详情：[permit_link]',
    ),
  }),
  audit_scheduled: S(['audit_title', 'site_name', 'start_date', 'audit_link'], ['start_date', 'audit_link'], false, {
    en: t(
      'Audit scheduled: [audit_title]',
      'Audit "[audit_title]" at [site_name] starts [start_date]',
      'Hello [user_name],\n\nThe audit "[audit_title]" at [site_name] is scheduled to start [start_date].\nOpen it here: [audit_link]',
    ),
    es: t(
      'Auditoría programada: [audit_title]',
      'La auditoría "[audit_title]" en [site_name] empieza el [start_date]',
      'Hola [user_name]:\n\nLa auditoría "[audit_title]" en [site_name] está programada para empezar el [start_date].\nÁbrala aquí: [audit_link]',
    ),
    tr: t(
      'Planlanan denetim: [audit_title]',
      '[site_name] konumundaki "[audit_title]" denetimi [start_date] tarihinde başlıyor',
      'Merhaba [user_name],\n\n[site_name] konumundaki "[audit_title]" denetiminin [start_date] tarihinde başlaması planlandı.\nBuradan açın: [audit_link]',
    ),
    zh: t(
      '已安排审核：[audit_title]',
      '[site_name] 的审核“[audit_title]”于 [start_date] 开始',
      '[user_name]，您好：\n\n[site_name] 的审核“[audit_title]”计划于 [start_date] 开始。\n在此打开：[audit_link]',
    ),
  }),
  audit_approved: S(['audit_title', 'score', 'audit_link'], ['audit_link'], false, {
    en: t(
      'Audit approved: [audit_title]',
      'Audit "[audit_title]" approved with score [score]',
      'Hello [user_name],\n\nThe audit "[audit_title]" was approved with a score of [score].\nRead the report here: [audit_link]',
    ),
    es: t(
      'Auditoría aprobada: [audit_title]',
      'Auditoría "[audit_title]" aprobada con puntuación [score]',
      'Hola [user_name]:\n\nLa auditoría "[audit_title]" fue aprobada con una puntuación de [score].\nLea el informe aquí: [audit_link]',
    ),
    tr: t(
      'Denetim onaylandı: [audit_title]',
      '"[audit_title]" denetimi [score] puanla onaylandı',
      'Merhaba [user_name],\n\n"[audit_title]" denetimi [score] puanla onaylandı.\nRaporu buradan okuyun: [audit_link]',
    ),
    zh: t(
      '审核已批准：[audit_title]',
      '审核“[audit_title]”已批准，得分 [score]',
      '[user_name]，您好：\n\n审核“[audit_title]”已批准，得分为 [score]。\n在此阅读报告：[audit_link]',
    ),
  }),
  hira_review_requested: S(['risk_id', 'risk_title', 'requested_by', 'hira_link'], ['risk_id', 'hira_link'], false, {
    en: t(
      'Risk assessment [risk_id] awaits your review',
      '[requested_by] asks you to review [risk_id]',
      'Hello [user_name],\n\n[requested_by] asks you to review the risk assessment [risk_id] "[risk_title]".\nApprove or reject it here: [hira_link]',
    ),
    es: t(
      'La evaluación de riesgos [risk_id] espera su revisión',
      '[requested_by] le pide revisar [risk_id]',
      'Hola [user_name]:\n\n[requested_by] le pide revisar la evaluación de riesgos [risk_id] "[risk_title]".\nApruébela o recházela aquí: [hira_link]',
    ),
    tr: t(
      '[risk_id] risk değerlendirmesi incelemenizi bekliyor',
      '[requested_by] [risk_id] incelemenizi istiyor',
      'Merhaba [user_name],\n\n[requested_by], [risk_id] "[risk_title]" risk değerlendirmesini incelemenizi istiyor.\nBuradan onaylayın veya reddedin: [hira_link]',
    ),
    zh: t(
      '风险评估 [risk_id] 等待您审核',
      '[requested_by] 请您审核 [risk_id]',
      '[user_name]，您好：\n\n[requested_by] 请您审核风险评估 [risk_id]“[risk_title]”。\n在此批准或驳回：[hira_link]',
    ),
  }),
  hira_approved: S(['risk_id', 'risk_title', 'approved_by', 'hira_link'], ['risk_id', 'hira_link'], false, {
    en: t(
      'Risk assessment [risk_id] published',
      '[approved_by] approved [risk_id]',
      'Hello [user_name],\n\n[approved_by] approved the risk assessment [risk_id] "[risk_title]"; it is now published.\nDetails: [hira_link]',
    ),
    es: t(
      'Evaluación de riesgos [risk_id] publicada',
      '[approved_by] aprobó [risk_id]',
      'Hola [user_name]:\n\n[approved_by] aprobó la evaluación de riesgos [risk_id] "[risk_title]"; ya está publicada.\nDetalles: [hira_link]',
    ),
    tr: t(
      '[risk_id] risk değerlendirmesi yayımlandı',
      '[approved_by] [risk_id] değerlendirmesini onayladı',
      'Merhaba [user_name],\n\n[approved_by], [risk_id] "[risk_title]" risk değerlendirmesini onayladı; artık yayında.\nAyrıntılar: [hira_link]',
    ),
    zh: t(
      '风险评估 [risk_id] 已发布',
      '[approved_by] 批准了 [risk_id]',
      '[user_name]，您好：\n\n[approved_by] 批准了风险评估 [risk_id]“[risk_title]”，现已发布。\n详情：[hira_link]',
    ),
  }),
  free_trial_otp: S(['otp_code', 'expires_in_minutes'], ['otp_code'], true, {
    en: t(
      'Your verification code: [otp_code]',
      'Verification code sent to your e-mail',
      'Hello [user_name],\n\nYour code to verify [organization_name] is [otp_code]. It expires in [expires_in_minutes] minutes.\nIf you did not ask for it, ignore this e-mail.',
    ),
    es: t(
      'Su código de verificación: [otp_code]',
      'Código de verificación enviado a su correo',
      'Hola [user_name]:\n\nSu código para verificar [organization_name] es [otp_code]. Caduca en [expires_in_minutes] minutos.\nSi no lo solicitó, ignore este correo.',
    ),
    tr: t(
      'Doğrulama kodunuz: [otp_code]',
      'Doğrulama kodu e-postanıza gönderildi',
      'Merhaba [user_name],\n\n[organization_name] doğrulama kodunuz [otp_code]. Kod [expires_in_minutes] dakika içinde geçersiz olur.\nBunu siz istemediyseniz bu e-postayı yok sayın.',
    ),
    zh: t(
      '您的验证码：[otp_code]',
      '验证码已发送到您的邮箱',
      '[user_name]，您好：\n\n您验证 [organization_name] 的验证码是 [otp_code]，将在 [expires_in_minutes] 分钟后失效。\n如果不是您本人申请，请忽略此邮件。',
    ),
  }),
  free_trial_expiring: S(['days_left', 'pricing_link'], ['days_left'], false, {
    en: t(
      'Your free trial ends in [days_left] days',
      'Free trial: [days_left] days left',
      'Hello [user_name],\n\nThe free trial of [organization_name] ends in [days_left] days. Choose a plan to keep your records and users: [pricing_link]',
    ),
    es: t(
      'Su prueba gratuita termina en [days_left] días',
      'Prueba gratuita: quedan [days_left] días',
      'Hola [user_name]:\n\nLa prueba gratuita de [organization_name] termina en [days_left] días. Elija un plan para conservar sus registros y usuarios: [pricing_link]',
    ),
    tr: t(
      'Ücretsiz denemeniz [days_left] gün içinde bitiyor',
      'Ücretsiz deneme: [days_left] gün kaldı',
      'Merhaba [user_name],\n\n[organization_name] ücretsiz denemesi [days_left] gün içinde bitiyor. Kayıtlarınızı ve kullanıcılarınızı korumak için bir plan seçin: [pricing_link]',
    ),
    zh: t(
      '您的免费试用将在 [days_left] 天后结束',
      '免费试用：剩余 [days_left] 天',
      '[user_name]，您好：\n\n[organization_name] 的免费试用将在 [days_left] 天后结束。请选择套餐以保留您的记录和用户：[pricing_link]',
    ),
  }),
  review_requested: S(['module_name', 'record_label', 'submitted_by', 'due_at', 'review_link'], ['record_label', 'review_link'], false, {
    en: t(
      '[module_name] [record_label] awaits your review',
      '[submitted_by] asks you to review [record_label]',
      'Hello [user_name],\n\n[submitted_by] submitted [module_name] [record_label] for review, and it is your turn. Please decide by [due_at].\nApprove or reject it here: [review_link]',
    ),
    es: t(
      '[module_name] [record_label] espera su revisión',
      '[submitted_by] le pide revisar [record_label]',
      'Hola [user_name]:\n\n[submitted_by] envió a revisión [module_name] [record_label] y le toca a usted. Decida antes del [due_at].\nApruébelo o recházelo aquí: [review_link]',
    ),
    tr: t(
      '[module_name] [record_label] incelemenizi bekliyor',
      '[submitted_by] [record_label] kaydını incelemenizi istiyor',
      'Merhaba [user_name],\n\n[submitted_by], [module_name] [record_label] kaydını incelemeye gönderdi ve sıra sizde. Lütfen [due_at] tarihine kadar karar verin.\nBuradan onaylayın veya reddedin: [review_link]',
    ),
    zh: t(
      '[module_name] [record_label] 等待您审核',
      '[submitted_by] 请您审核 [record_label]',
      '[user_name]，您好：\n\n[submitted_by] 提交了 [module_name] [record_label] 的审核，现在轮到您。请在 [due_at] 前作出决定。\n在此批准或驳回：[review_link]',
    ),
  }),
  review_reminder: S(['module_name', 'record_label', 'due_at', 'review_link'], ['record_label', 'review_link'], false, {
    en: t(
      'Reminder: [module_name] [record_label] awaits your review',
      '[record_label] still awaits your review',
      'Hello [user_name],\n\n[module_name] [record_label] has waited for your review since [due_at]. If you do not decide, it goes to the escalation user after another lead time.\nDecide here: [review_link]',
    ),
    es: t(
      'Recordatorio: [module_name] [record_label] espera su revisión',
      '[record_label] sigue esperando su revisión',
      'Hola [user_name]:\n\n[module_name] [record_label] espera su revisión desde el [due_at]. Si no decide, pasará a la persona de escalado tras otro plazo.\nDecida aquí: [review_link]',
    ),
    tr: t(
      'Hatırlatma: [module_name] [record_label] incelemenizi bekliyor',
      '[record_label] hâlâ incelemenizi bekliyor',
      'Merhaba [user_name],\n\n[module_name] [record_label], [due_at] tarihinden beri incelemenizi bekliyor. Karar vermezseniz bir süre sonra üst kademe kişisine aktarılır.\nBuradan karar verin: [review_link]',
    ),
    zh: t(
      '提醒：[module_name] [record_label] 等待您审核',
      '[record_label] 仍在等待您审核',
      '[user_name]，您好：\n\n[module_name] [record_label] 自 [due_at] 起一直在等待您审核。如果您仍不作决定，再过一个时限后将升级给升级对象。\n在此决定：[review_link]',
    ),
  }),
  review_escalated: S(['module_name', 'record_label', 'reviewer_name', 'review_link'], ['record_label', 'review_link'], false, {
    en: t(
      'Escalated to you: [module_name] [record_label]',
      'The review of [record_label] by [reviewer_name] is late',
      'Hello [user_name],\n\n[reviewer_name] has not reviewed [module_name] [record_label] within two lead times. As the escalation user you may now approve or reject it in their place.\nOpen it here: [review_link]',
    ),
    es: t(
      'Escalado a usted: [module_name] [record_label]',
      'La revisión de [record_label] por [reviewer_name] está retrasada',
      'Hola [user_name]:\n\n[reviewer_name] no ha revisado [module_name] [record_label] en dos plazos. Como persona de escalado puede aprobarlo o rechazarlo en su lugar.\nÁbralo aquí: [review_link]',
    ),
    tr: t(
      'Size aktarıldı: [module_name] [record_label]',
      '[reviewer_name] kişisinin [record_label] incelemesi gecikti',
      'Merhaba [user_name],\n\n[reviewer_name], [module_name] [record_label] kaydını iki süre içinde incelemedi. Üst kademe kişisi olarak artık onun yerine onaylayabilir veya reddedebilirsiniz.\nBuradan açın: [review_link]',
    ),
    zh: t(
      '已升级给您：[module_name] [record_label]',
      '[reviewer_name] 对 [record_label] 的审核已逾期',
      '[user_name]，您好：\n\n[reviewer_name] 在两个时限内未审核 [module_name] [record_label]。作为升级对象，您现在可以代其批准或驳回。\n在此打开：[review_link]',
    ),
  }),
  review_approved: S(['module_name', 'record_label', 'approved_by', 'comment', 'review_link'], ['record_label', 'review_link'], false, {
    en: t(
      '[module_name] [record_label] approved',
      '[approved_by] approved [record_label]',
      'Hello [user_name],\n\nThe review of [module_name] [record_label] is complete: [approved_by] gave the last approval.\nComment: [comment]\nDetails: [review_link]',
    ),
    es: t(
      '[module_name] [record_label] aprobado',
      '[approved_by] aprobó [record_label]',
      'Hola [user_name]:\n\nLa revisión de [module_name] [record_label] ha terminado: [approved_by] dio la última aprobación.\nComentario: [comment]\nDetalles: [review_link]',
    ),
    tr: t(
      '[module_name] [record_label] onaylandı',
      '[approved_by] [record_label] kaydını onayladı',
      'Merhaba [user_name],\n\n[module_name] [record_label] incelemesi tamamlandı: son onayı [approved_by] verdi.\nYorum: [comment]\nAyrıntılar: [review_link]',
    ),
    zh: t(
      '[module_name] [record_label] 已批准',
      '[approved_by] 批准了 [record_label]',
      '[user_name]，您好：\n\n[module_name] [record_label] 的审核已完成：[approved_by] 作出了最后的批准。\n备注：[comment]\n详情：[review_link]',
    ),
  }),
  review_rejected: S(
    ['module_name', 'record_label', 'rejected_by', 'reason', 'review_link'],
    ['record_label', 'reason', 'review_link'],
    false,
    {
      en: t(
        '[module_name] [record_label] rejected',
        '[rejected_by] rejected [record_label]',
        'Hello [user_name],\n\n[rejected_by] rejected [module_name] [record_label].\nReason: [reason]\nThe record is back with its owner, who may change it and submit it again: [review_link]',
      ),
      es: t(
        '[module_name] [record_label] rechazado',
        '[rejected_by] rechazó [record_label]',
        'Hola [user_name]:\n\n[rejected_by] rechazó [module_name] [record_label].\nMotivo: [reason]\nEl registro vuelve a su propietario, que puede modificarlo y enviarlo de nuevo: [review_link]',
      ),
      tr: t(
        '[module_name] [record_label] reddedildi',
        '[rejected_by] [record_label] kaydını reddetti',
        'Merhaba [user_name],\n\n[rejected_by], [module_name] [record_label] kaydını reddetti.\nGerekçe: [reason]\nKayıt sahibine döndü; sahibi değiştirip yeniden gönderebilir: [review_link]',
      ),
      zh: t(
        '[module_name] [record_label] 被驳回',
        '[rejected_by] 驳回了 [record_label]',
        '[user_name]，您好：\n\n[rejected_by] 驳回了 [module_name] [record_label]。\n原因：[reason]\n记录已退回给其所有者，所有者可以修改后重新提交：[review_link]',
      ),
    },
  ),
  // Drafts shared, extensions, revocation, the end of the work time and closing (issue 16).
  ...PERMIT_MAIL_SCENARIOS,
  // Overdue, a failed critical question, an answer's notice, the report mailed (issue 17).
  ...AUDIT_MAIL_SCENARIOS,
} satisfies Record<string, ScenarioDef>;

export type MailerScenarioId = keyof typeof SCENARIOS;

/** The modules of the mailers screen, in menu order; `id` is the stable number in its URLs. */
export const MAILER_MODULES = [
  { id: 1, key: 'users', scenarios: ['user_invited', 'user_role_changed'] },
  { id: 2, key: 'observations', scenarios: ['observation_reported', 'observation_closed'] },
  { id: 3, key: 'actions', scenarios: ['action_assigned', 'action_due_soon', 'action_overdue', 'action_completed'] },
  { id: 4, key: 'incidents', scenarios: ['incident_reported', 'investigation_assigned', 'investigation_overdue', 'incident_report_sent'] },
  {
    id: 5,
    key: 'permits',
    scenarios: [
      'permit_requested',
      'permit_approved',
      'permit_rejected',
      'permit_draft_shared',
      'permit_extension_requested',
      'permit_extended',
      'permit_revoked',
      'permit_pending_closure',
      'permit_overdue',
      'permit_closed',
    ],
  },
  {
    id: 6,
    key: 'audits',
    scenarios: ['audit_scheduled', 'audit_approved', 'audit_overdue', 'audit_critical_failure', 'audit_answer_notice', 'audit_report_sent'],
  },
  { id: 7, key: 'hira', scenarios: ['hira_review_requested', 'hira_approved'] },
  { id: 8, key: 'organization', scenarios: ['free_trial_otp', 'free_trial_expiring'] },
  { id: 9, key: 'reviews', scenarios: ['review_requested', 'review_reminder', 'review_escalated', 'review_approved', 'review_rejected'] },
] as const satisfies ReadonlyArray<{ id: number; key: string; scenarios: readonly MailerScenarioId[] }>;

export type MailerModule = (typeof MAILER_MODULES)[number];
export type MailerModuleKey = MailerModule['key'];

export type MailerScenario = {
  id: MailerScenarioId;
  module: MailerModuleKey;
  variables: readonly string[];
  required: readonly string[];
  mandatory: boolean;
  defaults: Record<Language, MailerText & { footer: string }>;
};

export const MAILER_SCENARIO_IDS = Object.keys(SCENARIOS) as MailerScenarioId[];

export function mailerModuleById(id: number): MailerModule | undefined {
  return MAILER_MODULES.find((m) => m.id === id);
}

export function isMailerScenarioId(id: string): id is MailerScenarioId {
  return Object.hasOwn(SCENARIOS, id);
}

export function mailerScenario(id: MailerScenarioId): MailerScenario {
  const def: ScenarioDef = SCENARIOS[id];
  const module = MAILER_MODULES.find((m) => (m.scenarios as readonly string[]).includes(id));
  const defaults = Object.fromEntries(
    (Object.keys(def.defaults) as Language[]).map((l) => [l, { ...def.defaults[l], footer: MAILER_DEFAULT_FOOTER[l] }]),
  ) as MailerScenario['defaults'];
  return { id, module: module!.key, variables: def.variables, required: def.required, mandatory: def.mandatory, defaults };
}

/** Plausible values for the preview, one per variable any scenario uses. */
export const MAILER_SAMPLE_VALUES: Record<string, string> = {
  user_name: 'Alex Morgan',
  organization_name: 'Acme Manufacturing',
  inviter_name: 'Sam Lee',
  invite_link: 'https://acme.example.com/password-reset/invite',
  role_name: 'Safety Manager',
  observation_id: 'OBS-0042',
  site_name: 'North Plant',
  risk_level: 'High',
  reporter_name: 'Jordan Kim',
  observation_link: 'https://acme.example.com/observations/summary/42',
  closed_by: 'Jordan Kim',
  action_title: 'Replace the damaged guard rail',
  due_date: '2026-12-15',
  assigned_by: 'Sam Lee',
  action_link: 'https://acme.example.com/actions/summary/17',
  days_overdue: '3',
  completed_by: 'Jordan Kim',
  incident_id: 'INC-0007',
  severity: 'Serious',
  incident_date: '2026-11-20 14:30',
  incident_link: 'https://acme.example.com/incidents/7/report',
  target_date: '2026-12-01',
  sender_name: 'Sam Lee',
  message: 'Please share it at the next safety committee.',
  permit_id: 'HW-0103',
  requestor_name: 'Chris Diaz',
  start_time: '2026-11-22 08:00',
  permit_link: 'https://acme.example.com/permit/103/summary',
  approved_by: 'Sam Lee',
  rejected_by: 'Sam Lee',
  shared_by: 'Sam Lee',
  revoked_by: 'Sam Lee',
  end_time: '2026-11-22 16:00',
  reason: 'Gas test missing',
  audit_title: 'Monthly fire safety inspection',
  start_date: '2026-12-01',
  audit_link: 'https://acme.example.com/audits/9/summary',
  score: '92%',
  risk_id: 'RA-0015',
  risk_title: 'Working at height on the mezzanine',
  requested_by: 'Chris Diaz',
  hira_link: 'https://acme.example.com/hira/summary/15',
  otp_code: '483920',
  expires_in_minutes: '10',
  days_left: '3',
  pricing_link: 'https://acme.example.com/pricing_upgrade',
  module_name: 'Incident',
  record_label: 'INC-0007 Forklift collision',
  submitted_by: 'Chris Diaz',
  due_at: '2026-11-23 14:00',
  reviewer_name: 'Jordan Kim',
  comment: 'Root cause well argued.',
  review_link: 'https://acme.example.com/incidents/7/summary',
  ...AUDIT_MAIL_SAMPLE_VALUES,
};
