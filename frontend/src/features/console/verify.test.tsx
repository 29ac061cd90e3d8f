import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Invitation, OpenInvitation } from '../../gen/wire.gen';
import { ada, fakeApi, type FakeAnswer } from './test-api';
import { renderConsoleAt } from './test-router';

// The browser's passkey sheet: it answers with a credential at once.
vi.mock(import('./public/webauthn'), async (original) => ({
  ...(await original()),
  getPasskey: vi.fn(async () => ({ id: 'credential' })),
}));

const me = ada('admin');

const invitation: Invitation = {
  id: 'i1',
  link: 'http://localhost:8080/admin/enrol#token',
  role: 'admin',
  name: 'Sam',
  expires: '2026-03-14T10:00:00Z',
};

// The invitation as the site lists it once made (GET /invitations).
const open: OpenInvitation = {
  id: 'i1',
  role: 'admin',
  name: 'Sam',
  by: 'a1',
  created: '2026-03-14T09:00:00Z',
  expires: '2026-03-14T10:00:00Z',
};

const verifyRefusal: FakeAnswer = {
  status: 403,
  body: { error: 'Confirm it is you: this needs your passkey again', code: 'verify' },
};

/**
 * The members page as an admin, on a fake API whose invitation POST answers
 * invite in turn; the open invitations are none, then the one made.
 */
async function renderMembers(invite: FakeAnswer[]) {
  const calls = fakeApi({
    'GET /me': [{ status: 200, body: me }],
    'GET /members': [{ status: 200, body: [me.member] }],
    'GET /invitations': [
      { status: 200, body: [] },
      { status: 200, body: [open] },
    ],
    'POST /invitations': invite,
    'POST /verify/begin': [{ status: 200, body: { id: 'c1', options: { challenge: 'AAAA' } } }],
    'POST /verify/finish': [{ status: 200, body: me }],
  });
  await renderConsoleAt('/admin/members');
  return calls;
}

/** Fills the invitation form with Sam, an admin, and sends it. */
async function inviteSam() {
  await screen.findByRole('heading', { name: 'Members' });
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Sam' } });
  fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'admin' } });
  fireEvent.click(screen.getByRole('button', { name: 'Make an invitation link' }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('an action that needs the passkey again', () => {
  it('asks for it over the page, which keeps what was typed, then runs again', async () => {
    const calls = await renderMembers([verifyRefusal, { status: 200, body: invitation }]);
    await inviteSam();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(screen.getByLabelText('Name')).toHaveValue('Sam');
    expect(screen.getByLabelText('Role')).toHaveValue('admin');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Use my passkey' }));
    await screen.findByRole('heading', { name: 'Invitation for Sam' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls.filter((c) => c.key.startsWith('POST'))).toEqual([
      { key: 'POST /invitations', body: { role: 'admin', name: 'Sam' } },
      { key: 'POST /verify/begin', body: undefined },
      { key: 'POST /verify/finish', body: { ceremony: 'c1', credential: { id: 'credential' } } },
      { key: 'POST /invitations', body: { role: 'admin', name: 'Sam' } },
    ]);
  });

  it('says so and keeps the form when the member declines', async () => {
    const calls = await renderMembers([verifyRefusal]);
    await inviteSam();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Confirm it is you: this needs your passkey again',
    );
    expect(screen.getByLabelText('Name')).toHaveValue('Sam');
    expect(calls.filter((c) => c.key === 'POST /invitations')).toHaveLength(1);
  });
});
