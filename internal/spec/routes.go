package spec

import "strconv"

// Team is the team's FRC number.
const Team = 1209

// Product is the site's name as page titles show it ("{product} - Home").
const Product = "RoboHornets"

// SiteName is the site's name in link previews and the window's title.
var SiteName = Product + " · FRC Team " + strconv.Itoa(Team)

// SiteDescription is the description of every page that has none of its own.
const SiteDescription = "FIRST Robotics Competition Team 1209, the RoboHornets of Tulsa: who we are, how to join, when we meet, our sponsors, seasons and news."

// NewsDescription is the meta description of the news list (docs/SPEC.md section 2: "the
// latest news and updates from the team"), and of an article page until its
// article is known.
const NewsDescription = "The latest news and updates from the team."

// Route is one page of the site with a fixed title: the server fills its
// head with these, and the page sets the same title in the browser.
type Route struct {
	Path        string
	Title       string
	Description string
}

// Routes are the site's pages with fixed titles, in the order of the sitemap.
var Routes = []Route{
	{"/", Product + " - Home", SiteDescription},
	{"/about", Product + " - About", SiteDescription},
	{"/contact", Product + " - Contact", SiteDescription},
	{"/news", Product + " - News", NewsDescription},
	{"/outreach", Product + " - Outreach", SiteDescription},
	{"/sponsors", Product + " - Sponsors", SiteDescription},
	{"/donate", Product + " - Donate", SiteDescription},
	{"/reefscape", Product + " - Reefscape", SiteDescription},
	{"/crescendo", Product + " - Crescendo", SiteDescription},
	{"/rebuilt", Product + " - Rebuilt", SiteDescription},
	{"/whattimeisit", Product + " - What time is it?", SiteDescription},
	{"/pit", Product + " - Pit display", "Team 1209 at its event: our next match, queue status, rank and announcements, live."},
}

// RouteByPath returns the route with path, if the site has one.
func RouteByPath(path string) (Route, bool) {
	for _, r := range Routes {
		if r.Path == path {
			return r, true
		}
	}
	return Route{}, false
}

// ArticleTitle is the page title of a news article.
func ArticleTitle(title string) string { return title + " - " + Product }
