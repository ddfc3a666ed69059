package render

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// customProperties are the page's; CSS may use these and no others.
var customProperties = []string{
	"--fg", "--bg", "--muted", "--border", "--accent", "--code-bg", "--mark-bg",
	"--hint-info", "--hint-success", "--hint-warning", "--hint-danger",
}

var (
	varUse    = regexp.MustCompile(`var\((--[a-z-]+)\)`)
	colorDecl = regexp.MustCompile(`(?:^|[;{])\s*(color|background(?:-color)?|border(?:-(?:top|bottom|left|right|inline-start|inline-end|color))?|outline)\s*:\s*([^;}]*)`)
	hexColour = regexp.MustCompile(`#[0-9a-fA-F]{3,8}\b`)
	cssRule   = regexp.MustCompile(`([^{}]+)\{([^{}]*)\}`)
)

func TestCSSSize(t *testing.T) {
	assert.Less(t, len(CSS()), 12*1024)
}

// TestCSSColours checks that the content styles take every colour from
// the page's custom properties: only the highlighting has colours of its
// own.
func TestCSSColours(t *testing.T) {
	css := CSS()
	for _, m := range varUse.FindAllStringSubmatch(css, -1) {
		assert.Contains(t, customProperties, m[1])
	}
	assert.NotRegexp(t, `(^|[;{\s])--[a-z-]+\s*:`, css, "CSS defines no custom property: the page does")
	assert.NotRegexp(t, `rgba?\(|hsla?\(`, contentCSS)
	decls := colorDecl.FindAllStringSubmatch(contentCSS, -1)
	require.NotEmpty(t, decls)
	for _, m := range decls {
		v := m[2]
		ok := strings.Contains(v, "var(--") || slices.Contains([]string{"0", "inherit", "transparent", "none"}, v)
		assert.True(t, ok, "%s:%s takes no colour from the page", m[1], v)
		assert.NotRegexp(t, hexColour, v)
	}
	for _, v := range customProperties {
		assert.Contains(t, contentCSS, "var("+v+")", "%s is unused", v)
	}
}

// TestCSSThemes checks the highlighting's rules: the light style, then
// the dark one under prefers-color-scheme overriding every class the light
// one styles, and every colour with AA contrast on its background.
func TestCSSThemes(t *testing.T) {
	css := theHighlighter().css
	light, dark, found := strings.Cut(css, "@media (prefers-color-scheme:dark){")
	require.True(t, found)
	lightRules, darkRules := parseRules(light), parseRules(dark)
	for sel := range lightRules {
		assert.Contains(t, darkRules, sel, "the dark style overrides %s", sel)
	}
	for name, rs := range map[string]map[string]string{"light": lightRules, "dark": darkRules} {
		bg := colourOf(t, rs[".chroma"], "background-color")
		require.True(t, bg.IsSet(), name)
		for sel, decls := range rs {
			fg := colourOf(t, decls, "color")
			if !fg.IsSet() {
				continue
			}
			back := bg
			if b := colourOf(t, decls, "background-color"); b.IsSet() {
				back = b
			}
			assert.GreaterOrEqual(t, contrast(fg, back), minContrast, "%s %s: %s on %s", name, sel, fg, back)
		}
	}
	// github's NameBuiltinPseudo (#6a737d on #f7f7f7) is 4.49: dropped.
	assert.NotContains(t, lightRules, ".chroma .bp")
}

// TestHighlightedClassesStyled checks that every class the highlighter
// writes has a rule, and that the types it drops have none.
func TestHighlightedClassesStyled(t *testing.T) {
	h := theHighlighter()
	css := h.css
	for t0, t1 := range h.types {
		cls := chroma.StandardTypes[t0]
		if t1 == chroma.Text {
			if cls != "" {
				assert.NotContains(t, css, ".chroma ."+cls+"{", "%v", t0)
				assert.NotContains(t, css, ".chroma ."+cls+",", "%v", t0)
			}
			continue
		}
		assert.Regexp(t, `\.chroma \.`+regexp.QuoteMeta(cls)+`[,{]`, css, "%v", t0)
	}
}

// parseRules returns the declarations of each selector of css.
func parseRules(css string) map[string]string {
	out := map[string]string{}
	for _, m := range cssRule.FindAllStringSubmatch(css, -1) {
		for sel := range strings.SplitSeq(m[1], ",") {
			out[strings.TrimSpace(sel)] = m[2]
		}
	}
	return out
}

func colourOf(t *testing.T, decls, prop string) chroma.Colour {
	for d := range strings.SplitSeq(decls, ";") {
		k, v, _ := strings.Cut(d, ":")
		if strings.TrimSpace(k) == prop && strings.HasPrefix(v, "#") {
			c := chroma.ParseColour(v)
			require.True(t, c.IsSet(), v)
			return c
		}
	}
	return 0
}
