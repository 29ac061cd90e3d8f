import { describe, expect, it } from 'vitest';
import { safeNext, signInHref } from './next';

describe('safeNext', () => {
  it.for([
    { next: null, want: '/admin' },
    { next: '', want: '/admin' },
    { next: '/admin', want: '/admin' },
    { next: '/admin/posts/build-week?tab=preview', want: '/admin/posts/build-week?tab=preview' },
    { next: '/admin/members#invite', want: '/admin/members#invite' },
    { next: '/', want: '/admin' },
    { next: '/news', want: '/admin' },
    { next: '/administrator', want: '/admin' },
    { next: '//evil.example/admin', want: '/admin' },
    { next: '/\\evil.example/admin', want: '/admin' },
    { next: 'https://evil.example/admin', want: '/admin' },
    { next: 'javascript:alert(1)', want: '/admin' },
    { next: '/admin/../news', want: '/admin' },
    { next: '/admin/signin', want: '/admin' },
    { next: '/admin/enrol', want: '/admin' },
  ])('$next → $want', ({ next, want }) => {
    expect(safeNext(next)).toBe(want);
  });
});

describe('signInHref', () => {
  it('comes back to the page', () => {
    expect(signInHref('/admin/posts/build-week?tab=x')).toBe(
      '/admin/signin?next=%2Fadmin%2Fposts%2Fbuild-week%3Ftab%3Dx',
    );
  });
});
