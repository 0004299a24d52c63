import { catalogs } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { ServicesContext, type Services } from '../../app/services.js';
import { createI18n } from '../../i18n/setup.js';
import { SignInForm } from './sign-in-form.js';

function renderWith(ui: ReactNode, http: Partial<HttpClient>, language: 'en' | 'es' = 'en') {
  const i18n = createI18n(language);
  const services: Services = {
    http: http as HttpClient,
    session: createSessionStore(createMemoryStorage()),
    push: {} as PushClient,
    queryClient: new QueryClient(),
    i18n,
    storage: createMemoryStorage(),
    location: { host: 'demo.localhost:3000', protocol: 'http:', assign: vi.fn() },
    now: () => 0,
  };
  return render(
    <ServicesContext.Provider value={services}>
      <I18nextProvider i18n={i18n}>
        <MantineProvider>{ui}</MantineProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
}

function fill(name: 'email' | 'password', value: string) {
  const input = document.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  if (!input) throw new Error(`no ${name} field`);
  fireEvent.change(input, { target: { value } });
}

describe('sign-in form', () => {
  it('shows the translated validation error and does not call the server', async () => {
    const post = vi.fn();
    renderWith(<SignInForm onSignedIn={vi.fn()} />, { post });
    fill('email', 'not-an-address');
    fill('password', 'x');
    fireEvent.click(screen.getByRole('button', { name: catalogs.en.auth.signIn }));
    expect(await screen.findByText(catalogs.en.validation.email)).toBeTruthy();
    // The message is tied to its field for screen readers.
    expect(document.querySelector('input[name="email"]')?.getAttribute('aria-invalid')).toBe('true');
    expect(post).not.toHaveBeenCalled();
  });

  it('speaks the chosen language', async () => {
    renderWith(<SignInForm onSignedIn={vi.fn()} />, { post: vi.fn() }, 'es');
    fireEvent.click(screen.getByRole('button', { name: catalogs.es.auth.signIn }));
    expect(await screen.findByText(catalogs.es.validation.email)).toBeTruthy();
    expect(await screen.findByText(catalogs.es.validation.required)).toBeTruthy();
  });

  it('shows the server’s field error under its field', async () => {
    const post = vi
      .fn()
      .mockRejectedValue(new ApiError('Incorrect password.', 401, 'incorrect_password', { password: 'Incorrect password.' }));
    const onSignedIn = vi.fn();
    renderWith(<SignInForm onSignedIn={onSignedIn} />, { post });
    fill('email', 'Admin@Demo.test');
    fill('password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: catalogs.en.auth.signIn }));
    expect(await screen.findByText('Incorrect password.')).toBeTruthy();
    // The schema normalises the address before it is sent.
    expect(post).toHaveBeenCalledWith(
      '/api/v1/authorize',
      { email: 'admin@demo.test', password: 'wrong' },
      expect.objectContaining({ mode: 'plain' }),
    );
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('hands the session on after a successful sign-in', async () => {
    const response = { token: 't', csrf: 'c', refresh: 'r' };
    const onSignedIn = vi.fn();
    renderWith(<SignInForm onSignedIn={onSignedIn} />, { post: vi.fn().mockResolvedValue(response) });
    fill('email', 'admin@demo.test');
    fill('password', 'Demo#2026!');
    fireEvent.click(screen.getByRole('button', { name: catalogs.en.auth.signIn }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(response));
  });
});
