import { useNotice } from '../../shared/use-notice';
import './notice-banner.css';

/**
 * The pit notice on every public page: a bar over the foot of the screen,
 * so it moves nothing on the page. The status region stays in the page,
 * empty without a notice, so a screen reader announces one when it comes.
 */
export function NoticeBanner() {
  const notice = useNotice();
  return (
    <div className="notice-banner" role="status">
      {notice && (
        <p>
          <b>Pit notice</b> {notice.text}
        </p>
      )}
    </div>
  );
}
