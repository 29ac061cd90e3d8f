package spec

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TypeScript returns the source of frontend/src/gen/spec.gen.ts, which
// cmd/gen writes under its "Code generated" line: every constant of this
// package with the same name, durations in milliseconds, and the route table.
func TypeScript() string {
	var b strings.Builder
	b.WriteString("// The business constants of docs/SPEC.md section 9; durations are in milliseconds.\n\n")
	ms := func(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }
	rows := []struct{ name, value string }{
		{"SlideshowAutoAdvance", ms(SlideshowAutoAdvance)},
		{"SlideAnimation", ms(SlideAnimation)},
		{"KeyPressThrottle", ms(KeyPressThrottle)},
		{"ParallaxScrollThrottle", ms(ParallaxScrollThrottle)},
		{"ParallaxFactor", fmt.Sprint(ParallaxFactor)},
		{"TitleLetterHoverStagger", ms(TitleLetterHoverStagger)},
		{"InlineLinkHoverStagger", ms(InlineLinkHoverStagger)},
		{"NewsPreviewLines", fmt.Sprint(NewsPreviewLines)},
		{"NewsPreviewClampLines", fmt.Sprint(NewsPreviewClampLines)},
		{"NewsSortDefault", strconv.Quote(NewsSortDefault) + " as const"},
		{"CountdownDebugOffset", ms(CountdownDebugOffset)},
		{"CountdownTargetTimeOfDay", strconv.Quote(CountdownTargetTimeOfDay)},
		{"CelebrationLength", ms(CelebrationLength)},
		{"CelebrationInterval", ms(CelebrationInterval)},
		{"ConfettiParticles", fmt.Sprint(ConfettiParticles)},
		{"ConfettiSpread", fmt.Sprint(ConfettiSpread)},
		{"ConfettiOriginY", fmt.Sprint(ConfettiOriginY)},
		{"SeasonPageBubbles", fmt.Sprint(SeasonPageBubbles)},
		{"ExpandingCirclesMax", fmt.Sprint(ExpandingCirclesMax)},
		{"ExpandingCirclesEvery", ms(ExpandingCirclesEvery)},
		{"ExpandingCircleLifetime", ms(ExpandingCircleLifetime)},
		{"WaveAmplitude", fmt.Sprint(WaveAmplitude)},
		{"WaveLength", fmt.Sprint(WaveLength)},
		{"WavePathStep", fmt.Sprint(WavePathStep)},
		{"NarrowLayoutMaxWidth", fmt.Sprint(NarrowLayoutMaxWidth)},
		{"WideLayoutMinWidth", fmt.Sprint(WideLayoutMinWidth)},
		{"MenuCollapseBelow", fmt.Sprint(MenuCollapseBelow)},
		{"FooterClockRefresh", ms(FooterClockRefresh)},
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "export const %s = %s;\n", r.name, r.value)
	}
	quoted := make([]string, len(ConfettiColors))
	for i, c := range ConfettiColors {
		quoted[i] = "'" + c + "'"
	}
	fmt.Fprintf(&b, "export const ConfettiColors = [%s] as const;\n", strings.Join(quoted, ", "))

	b.WriteString("\n// The site's pages with fixed titles (internal/spec/routes.go): the server\n")
	b.WriteString("// fills each page's head with the same title and description.\n")
	fmt.Fprintf(&b, "export const Team = %d;\n", Team)
	fmt.Fprintf(&b, "export const Product = %s;\n", strconv.Quote(Product))
	fmt.Fprintf(&b, "export const SiteDescription = %s;\n", strconv.Quote(SiteDescription))
	fmt.Fprintf(&b, "export const NewsDescription = %s;\n", strconv.Quote(NewsDescription))
	b.WriteString("export const Routes = {\n")
	for _, r := range Routes {
		fmt.Fprintf(&b, "  %s: { title: %s, description: %s, banner: %t },\n", strconv.Quote(r.Path), strconv.Quote(r.Title), strconv.Quote(r.Description), r.Banner)
	}
	b.WriteString("} as const;\n")
	fmt.Fprintf(&b, "/** The page title of a news article. */\nexport function articleTitle(title: string): string {\n  return `${title}%s`;\n}\n",
		ArticleTitle(""))
	return b.String()
}
