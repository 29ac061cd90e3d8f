import { useNotice } from '../../shared/use-notice';
import './notice-line.css';

/**
 * The pit notice as the pit display's top line: large, for a crew across
 * the pit. The status region stays on the board, empty without a notice.
 */
export function PitNoticeLine() {
  const notice = useNotice();
  return (
    <p className="pit-team-notice" role="status">
      {notice && (
        <>
          <strong className="pit-team-notice__label">Notice</strong> {notice.text}
        </>
      )}
    </p>
  );
}
