/**
 * Push channels of spec 000 §7. The server emits `channel` events to the organisation or user room;
 * the client may ask for the current value with the matching request, answered through the ack.
 */
export const PUSH_CHANNELS = [
  'org_modules',
  'user',
  'notification',
  'actions',
  'rules',
  'plan',
  'all_modules',
  'onboarding',
  'tenant_memory',
  'role_wise_users',
  'module_based_users',
  'used_license_count',
  'subscription_plan',
  'timezone',
  'saas_additional_features',
  'organization',
  // Module channels beyond the spec's list: records that others must see arrive without reloading.
  'observations',
  'safety_interactions',
  // A user's guided tours: one seen in one tab is not offered again in the others.
  'tours',
  'incidents',
  'permits',
  'audits',
  // Integrations (issue 19): an export's progress (to whoever asked) and webhook deliveries (admins' screen).
  'data_exports',
  'webhooks',
] as const;
export type PushChannel = (typeof PUSH_CHANNELS)[number];

export const PUSH_REQUESTS = {
  get_user: 'user',
  get_rules: 'rules',
  get_all_unread_notifications: 'notification',
  get_tenant_memory_details: 'tenant_memory',
  get_timezone: 'timezone',
  get_organization: 'organization',
  get_all_modules: 'all_modules',
  get_plan: 'plan',
  get_subscription_plan: 'subscription_plan',
  get_saas_additional_features: 'saas_additional_features',
  get_role_wise_users: 'role_wise_users',
  get_module_based_users: 'module_based_users',
  get_used_lincence_count: 'used_license_count',
  get_actions: 'actions',
} as const satisfies Record<string, PushChannel>;
export type PushRequest = keyof typeof PUSH_REQUESTS;

export type PushChange = 'created' | 'updated' | 'removed' | 'all';

/** What every push event carries; the web invalidates its caches from `channel`, `change` and `id`. */
export type PushEvent<T = unknown> = { channel: PushChannel; change: PushChange; id?: string; data?: T };
