import type { MailOutboxItem } from '@bulwark/domain';

/** Query keys of the mailers screens; a save invalidates everything under `MAILERS_KEY`. */
export const MAILERS_KEY = ['mailers'] as const;
export const modulesKey = (orgId: string) => [...MAILERS_KEY, orgId, 'modules'] as const;
export const scenariosKey = (orgId: string, moduleId: number) => [...MAILERS_KEY, orgId, 'scenarios', moduleId] as const;
export const scenarioKey = (orgId: string, moduleId: number, scenarioId: string) =>
  [...MAILERS_KEY, orgId, 'scenario', moduleId, scenarioId] as const;
export const outboxKey = (page: number) => [...MAILERS_KEY, 'outbox', page] as const;

export const modulesPath = (orgId: string) => `/api/organizations/${orgId}/mailer_modules`;
export const scenariosPath = (orgId: string, moduleId: number) => `${modulesPath(orgId)}/${moduleId}/scenarios`;
export const scenarioPath = (orgId: string, moduleId: number, scenarioId: string) => `${scenariosPath(orgId, moduleId)}/${scenarioId}`;

export type OutboxResponse = {
  mails: MailOutboxItem[];
  pagination: { page: number; per_page: number; total: number; total_pages: number };
  smtp_enabled: boolean;
};

export const OUTBOX_STATUS_COLOR: Record<MailOutboxItem['status'], string> = {
  pending: 'yellow',
  sent: 'teal',
  failed: 'red',
  kept: 'gray',
};
