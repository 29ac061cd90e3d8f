import { Banner } from '../../shared/banner/banner';
import { sponsorsPage } from './content';
import { useRouteHead } from '../../shared/use-route-head';

/** The Sponsors page: a parallax banner only, titled NEWS as the spec shows it. */
export function Sponsors() {
  useRouteHead('/sponsors');
  return <Banner title={sponsorsPage.bannerTitle} />;
}
