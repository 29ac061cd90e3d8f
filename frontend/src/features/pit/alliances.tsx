import { allianceWords, roleText } from './board';
import { allianceStateText } from '../../shared/event/words';
import type { Alliance, Playoffs } from '../../platform/types';

/** One alliance: its number, captain, picks and backup; ours marked. */
function Row({ alliance, us }: { alliance: Alliance; us: string }) {
  const [captain, ...picks] = alliance.teams ?? [];
  const state = allianceStateText(alliance.state);
  const team = (t: string, i: number) => (
    <span
      key={`${t}-${i}`}
      className={`pit-alliances__team${t === us ? ' pit-alliances__team--us' : ''}`}
    >
      {t.trim() || 'TBD'}
    </span>
  );
  return (
    <li
      className={`pit-alliances__row${alliance.ours ? ' pit-alliances__row--ours' : ''}${
        alliance.state === 'eliminated' ? ' pit-alliances__row--out' : ''
      }`}
      aria-label={`Alliance ${alliance.number}${alliance.ours ? ' (ours)' : ''}: ${allianceWords(alliance)}${state ? `, ${state.toLowerCase()}` : ''}`}
    >
      <span className="pit-alliances__number" aria-hidden="true">
        {alliance.number}
      </span>
      <span className="pit-alliances__captain" aria-hidden="true">
        {captain ? team(captain, 0) : 'TBD'}
      </span>
      <span className="pit-alliances__picks" aria-hidden="true">
        {picks.map((t, i) => team(t, i + 1))}
        {alliance.backup && (
          <span className="pit-alliances__backup">
            <span className="pit-alliances__tag">Backup</span> {team(alliance.backup, 9)}
          </span>
        )}
      </span>
      {state && (
        <span className="pit-alliances__state" aria-hidden="true">
          {state}
        </span>
      )}
    </li>
  );
}

/** Every alliance in number order: captain, picks, backup; ours highlighted. */
export function AllianceList({
  playoffs,
  team,
  title = 'Alliances',
}: {
  playoffs: Playoffs | null;
  team: number;
  title?: string;
}) {
  const alliances = playoffs?.alliances ?? [];
  const ours = playoffs?.ours;
  return (
    <section className="pit-panel pit-alliances" aria-labelledby="pit-alliances-title">
      <h2 id="pit-alliances-title" className="pit-panel__title">
        {title}
        {ours && (
          <span className="pit-alliances__ours">
            {' '}
            · We are {roleText(ours.role).toLowerCase()} of Alliance {ours.number}
          </span>
        )}
      </h2>
      {alliances.length === 0 ? (
        <p className="pit-alliances__empty">The alliances are not known yet</p>
      ) : (
        <ol className="pit-alliances__list">
          <li className="pit-alliances__head" aria-hidden="true">
            <span>#</span>
            <span>Captain</span>
            <span>Picks</span>
          </li>
          {alliances.map((a) => (
            <Row key={a.number} alliance={a} us={String(team)} />
          ))}
        </ol>
      )}
    </section>
  );
}
