import { Banner } from '../components/banner';
import { pageTitles, sponsorsPage } from '../content/site';
import { useDocumentTitle } from '../hooks/use-document-title';

/** The Sponsors page: a parallax banner only, titled NEWS as the spec shows it. */
export function Sponsors() {
  useDocumentTitle(pageTitles.sponsors);
  return <Banner title={sponsorsPage.bannerTitle} />;
}
