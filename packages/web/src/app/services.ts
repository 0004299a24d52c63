import { createContext, useContext } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { HttpClient } from '../api/http.js';
import type { PushClient } from '../api/push-client.js';
import type { KeyValueStorage, SessionStore } from '../api/session-store.js';

/** Everything screens need from the outside world, passed down so tests can hand in fakes. */
export type Services = {
  http: HttpClient;
  session: SessionStore;
  push: PushClient;
  queryClient: QueryClient;
  i18n: I18n;
  storage: KeyValueStorage;
  location: { host: string; protocol: string; assign(url: string): void };
  now: () => number;
};

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesContext');
  return services;
}
