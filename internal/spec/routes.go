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

// FollowPath is the follow page's path: where the notifications to the
// team's followers lead, and the only scope of its service worker.
const FollowPath = "/follow"

// Route is one page of the site with a fixed title: the server fills its
// head with these, and the page sets the same title in the browser.
type Route struct {
	Path        string
	Title       string
	Description string
	// Banner: the page opens with the banner slideshow, whose first picture
	// is its largest paint; the server has the browser fetch it at once.
	Banner bool
}

// Routes are the site's pages with fixed titles, in the order of the sitemap.
var Routes = []Route{
	{"/", Product + " - Home", SiteDescription, true},
	{"/about", Product + " - About", SiteDescription, true},
	{"/contact", Product + " - Contact", SiteDescription, true},
	{"/news", Product + " - News", NewsDescription, true},
	{"/outreach", Product + " - Outreach", SiteDescription, false},
	{"/sponsors", Product + " - Sponsors", SiteDescription, true},
	{"/donate", Product + " - Donate", SiteDescription, true},
	{"/reefscape", Product + " - Reefscape", SiteDescription, false},
	{"/crescendo", Product + " - Crescendo", SiteDescription, false},
	{"/rebuilt", Product + " - Rebuilt", SiteDescription, false},
	{"/whattimeisit", Product + " - What time is it?", SiteDescription, false},
	{"/pit", Product + " - Pit display", "Team 1209 at its event: our next match, queue status, rank and announcements, live.", false},
	{FollowPath, Product + " - Follow 1209 live", "Follow Team 1209 at its event from anywhere: our next match in your time zone, the queue, our results, rank and playoffs, live, with alerts on your phone.", false},
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
