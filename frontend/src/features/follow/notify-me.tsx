import { useEffect, useId, useState } from 'react';
import {
  check,
  defaultChoices,
  stateText,
  topics,
  turnOff,
  turnOn,
  type Choices,
  type NotifyDeps,
  type NotifyState,
  type Topic,
} from './notify';

/** Each topic's label in the control. */
const topicLabels: Record<Topic, string> = {
  queuing: 'When we’re queuing',
  results: 'Each result',
  selection: 'Alliance selection',
  playoffs: 'Playoff outcome',
  news: 'News posts',
};

/** The lead of a queue call: when we queue, or 1 to 3 of our matches ahead. */
const leads = [
  { value: 0, label: 'when we queue' },
  { value: 1, label: '1 match ahead' },
  { value: 2, label: '2 matches ahead' },
  { value: 3, label: '3 matches ahead' },
];

/**
 * "Notify me": the follower's choices and the button that turns alerts on,
 * changes them or turns them off, through deps (the browser's push and the
 * server's API; tests give fakes). The words for each state are notify.ts's.
 */
export function NotifyMe({ deps }: { deps: NotifyDeps }) {
  const id = useId();
  const [state, setState] = useState<NotifyState>({ kind: 'checking' });
  const [choices, setChoices] = useState<Choices>(() => deps.store.load() ?? defaultChoices);
  useEffect(() => {
    let live = true;
    void check(deps).then((s) => {
      if (live) setState(s);
    });
    return () => {
      live = false;
    };
  }, [deps]);

  const run = (action: () => Promise<NotifyState>) => {
    setState({ kind: 'working' });
    void action().then((s) => {
      setState(s);
      if (s.kind === 'on') setChoices(s.choices);
    });
  };
  const on = state.kind === 'on' || (state.kind === 'error' && state.choices !== null);
  // The form shows while the browser is checked too (disabled), so the page does not move when it answers.
  const usable = state.kind !== 'unsupported' && state.kind !== 'denied';
  const busy = state.kind === 'checking' || state.kind === 'working';
  const toggle = (topic: Topic, checked: boolean) =>
    setChoices((c) => ({
      ...c,
      topics: topics.filter((t) => (t === topic ? checked : c.topics.includes(t))),
    }));

  return (
    <section className="follow-card follow-notify" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="follow-card__title">
        Notify me
      </h2>
      {usable && (
        <form
          className="follow-notify__form"
          onSubmit={(e) => {
            e.preventDefault();
            run(() => turnOn(deps, choices));
          }}
        >
          <fieldset className="follow-notify__topics" disabled={busy}>
            <legend>Send me an alert</legend>
            {topics.map((topic) => (
              <label key={topic} className="follow-notify__topic">
                <input
                  type="checkbox"
                  name="topic"
                  value={topic}
                  checked={choices.topics.includes(topic)}
                  onChange={(e) => toggle(topic, e.currentTarget.checked)}
                />
                {topicLabels[topic]}
              </label>
            ))}
          </fieldset>
          <label className="follow-notify__lead">
            Queue alert
            <select
              value={choices.matchesAhead}
              disabled={busy || !choices.topics.includes('queuing')}
              onChange={(e) => {
                // Read now: the event's target is gone when the update runs.
                const matchesAhead = Number(e.currentTarget.value);
                setChoices((c) => ({ ...c, matchesAhead }));
              }}
            >
              {leads.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
          <div className="follow-notify__actions">
            <button type="submit" className="follow-button" disabled={busy}>
              {on ? 'Save my choices' : 'Turn on alerts'}
            </button>
            {on && (
              <button
                type="button"
                className="follow-button follow-button--quiet"
                onClick={() => run(() => turnOff(deps))}
              >
                Turn off
              </button>
            )}
          </div>
        </form>
      )}
      <p
        className={`follow-notify__state follow-notify__state--${state.kind}`}
        role={state.kind === 'error' ? 'alert' : 'status'}
      >
        {stateText(state)}
      </p>
      <p className="follow-fine">
        We keep only your browser’s push address and your choices; unsubscribe any time.
      </p>
    </section>
  );
}
