import { Banner } from '../components/banner';
import { sponsorsPage } from '../content/site';
import { useRouteHead } from '../hooks/use-route-head';

/** The Sponsors page: a parallax banner only, titled NEWS as the spec shows it. */
export function Sponsors() {
  useRouteHead('/sponsors');
  return <Banner title={sponsorsPage.bannerTitle} />;
}
