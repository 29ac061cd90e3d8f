import { describe, expect, it } from 'vitest';
import { notificationOf, pushTarget } from './push-payload';

const origin = 'https://robohornets.example';

describe('notificationOf', () => {
  it('reads this site’s JSON', () => {
    expect(
      notificationOf(
        {
          title: '1209 is queuing',
          body: 'Qualification 44 starts about 2:05 pm',
          tag: 'queue-2026okok_qm44',
          data: { url: '/follow?m=qm44' },
        },
        origin,
      ),
    ).toEqual({
      title: '1209 is queuing',
      body: 'Qualification 44 starts about 2:05 pm',
      tag: 'queue-2026okok_qm44',
      url: 'https://robohornets.example/follow?m=qm44',
    });
  });

  it('reads Declarative Web Push', () => {
    expect(
      notificationOf(
        {
          web_push: 8030,
          notification: {
            title: 'We won 85–72',
            body: 'Qualification 44',
            navigate: 'https://robohornets.example/follow',
            tag: 'result-qm44',
          },
        },
        origin,
      ),
    ).toEqual({
      title: 'We won 85–72',
      body: 'Qualification 44',
      tag: 'result-qm44',
      url: 'https://robohornets.example/follow',
    });
  });

  it('shows something for an empty push', () => {
    expect(notificationOf({}, origin)).toEqual({
      title: 'RoboHornets 1209',
      body: '',
      tag: '',
      url: 'https://robohornets.example/follow',
    });
  });
});

describe('pushTarget', () => {
  it.each([
    ['/news/x', 'https://robohornets.example/news/x'],
    ['https://evil.example/phish', 'https://robohornets.example/follow'],
    ['javascript:alert(1)', 'https://robohornets.example/follow'],
    [42, 'https://robohornets.example/follow'],
  ])('%s', (value, want) => {
    expect(pushTarget(value, origin)).toBe(want);
  });
});
