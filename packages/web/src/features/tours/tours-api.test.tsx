import type { ToursSeenResponse } from '@bulwark/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { ServicesContext, type Services } from '../../app/services.js';
import { createI18n } from '../../i18n/setup.js';
import { useTourSeen } from './tours-api.js';

/** A signed-in session whose server has recorded `seen`; every POST is kept in `posts`. */
function setUp(seen: ToursSeenResponse['tours']) {
  const posts: Array<{ path: string; body: unknown }> = [];
  const recorded = [...seen];
  const http: Partial<HttpClient> = {
    get: vi.fn(async () => ({ tours: [...recorded] })) as HttpClient['get'],
    post: vi.fn(async (path: string, body?: unknown) => {
      posts.push({ path, body });
      const key = (body as { tour_key: ToursSeenResponse['tours'][number]['tour_key'] }).tour_key;
      if (!recorded.some((t) => t.tour_key === key)) recorded.push({ tour_key: key, completed_at: '2026-11-26T10:00:00.000Z' });
      return { tours: [...recorded] };
    }) as HttpClient['post'],
  };
  const session = createSessionStore(createMemoryStorage());
  session.saveTokens({ token: 't', csrf: 'c', refresh: 'r' });
  const queryClient = new QueryClient();
  const services: Services = {
    http: http as HttpClient,
    session,
    push: {} as PushClient,
    queryClient,
    i18n: createI18n('en'),
    storage: createMemoryStorage(),
    location: { host: 'demo.localhost:3000', protocol: 'http:', assign: vi.fn() },
    now: () => 0,
  };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ServicesContext.Provider value={services}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ServicesContext.Provider>
  );
  return { posts, wrapper };
}

describe('useTourSeen', () => {
  it('says "not seen" once known, records the tour with one POST however often it is marked, then says "seen"', async () => {
    const { posts, wrapper } = setUp([]);
    const { result } = renderHook(() => useTourSeen('observation'), { wrapper });
    expect(result.current.seen).toBeUndefined();
    await waitFor(() => expect(result.current.seen).toBe(false));

    act(() => {
      result.current.markSeen();
      result.current.markSeen();
    });
    await waitFor(() => expect(result.current.seen).toBe(true));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ path: '/api/intro_tour_user_tracking', body: { tour_key: 'observation' } });
    act(() => result.current.markSeen());
    expect(posts).toHaveLength(1);
  });

  it('sends nothing for a tour the user has already seen', async () => {
    const { posts, wrapper } = setUp([{ tour_key: 'observation', completed_at: '2026-11-01T08:00:00.000Z' }]);
    const { result } = renderHook(() => useTourSeen('observation'), { wrapper });
    await waitFor(() => expect(result.current.seen).toBe(true));
    act(() => result.current.markSeen());
    expect(posts).toHaveLength(0);
    const other = renderHook(() => useTourSeen('incident'), { wrapper });
    await waitFor(() => expect(other.result.current.seen).toBe(false));
  });
});
