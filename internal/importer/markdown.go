package importer

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bindery/bindery/internal/mdtext"
)

// importMarkdown imports one markdown document as one page.
func (im *importer) importMarkdown(ctx context.Context, u *url.URL) error {
	im.res.Total++
	resp, err := im.fetch.get(ctx, u, nil)
	if err != nil {
		return err
	}
	if htmlType(resp.MediaType) {
		return errorf(CodeInvalid, "%s is an HTML page, not a markdown document; import it with the html source", redact(resp.URL))
	}
	src, ok := textBody(resp)
	if !ok {
		return errorf(CodeInvalid, "%s is not a markdown document", redact(resp.URL))
	}
	doc := parseMarkdown(src)
	if doc.title == "" {
		doc.title = nameFromPath(resp.URL.Path)
	}
	if doc.title == "" {
		doc.title = resp.URL.Hostname()
	}
	body := mdtext.Rewrite(doc.body, func(ref string, image bool) string {
		target, err := resp.URL.Parse(ref)
		if err != nil || strings.HasPrefix(ref, "#") {
			return ref
		}
		if image {
			if name := im.remoteImage(ctx, target); name != "" {
				return assetPrefix + name
			}
		}
		if httpScheme(target) {
			return target.String()
		}
		return ref
	})
	page := im.newPage(doc.title, body)
	page.Page.Description = doc.description
	im.res.Pages = attach(im.res.Pages, page)
	im.res.Imported++
	return nil
}

// textBody is the response as UTF-8 text, when it is text.
func textBody(r *response) (string, bool) {
	switch {
	case strings.HasPrefix(r.MediaType, "text/"), r.MediaType == "application/markdown":
	case r.MediaType == "" || r.MediaType == "application/octet-stream":
		if !strings.HasPrefix(http.DetectContentType(r.Body), "text/plain") {
			return "", false
		}
	default:
		return "", false
	}
	return markdownText(r.Body)
}

// markdownText is data as text without a byte order mark, when it is UTF-8.
func markdownText(data []byte) (string, bool) {
	s := strings.TrimPrefix(string(data), "\ufeff")
	return s, utf8.ValidString(s)
}

// markdownDoc is a markdown document split into the parts a page uses.
type markdownDoc struct {
	// title is the front matter's title or the first "# heading", which is
	// then removed from body.
	title       string
	description string
	body        string
}

// parseMarkdown splits off YAML front matter and takes the title.
func parseMarkdown(src string) markdownDoc {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	var doc markdownDoc
	src = frontMatter(src, &doc)
	lines := strings.Split(src, "\n")
	if doc.title == "" {
		if i, text := mdtext.FirstHeading(lines); i >= 0 {
			doc.title = cleanTitle(text)
			end := i + 1
			if end < len(lines) && strings.TrimSpace(lines[end]) == "" {
				end++
			}
			lines = append(lines[:i:i], lines[end:]...)
		}
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	doc.body = strings.TrimRight(strings.Join(lines, "\n"), " \t\n")
	return doc
}

// frontMatter removes a leading YAML front matter block from src, taking
// its title and description.
func frontMatter(src string, doc *markdownDoc) string {
	if !strings.HasPrefix(src, "---\n") {
		return src
	}
	lines := strings.Split(src, "\n")
	for i := 1; i < len(lines); i++ {
		if line := strings.TrimRight(lines[i], " \t"); line != "---" && line != "..." {
			continue
		}
		for _, kv := range lines[1:i] {
			key, val, ok := strings.Cut(kv, ":")
			if !ok {
				continue
			}
			val = strings.TrimSpace(val)
			if uq, err := strconv.Unquote(val); err == nil {
				val = uq
			} else if len(val) >= 2 && val[0] == '\'' && val[len(val)-1] == '\'' {
				val = strings.ReplaceAll(val[1:len(val)-1], "''", "'")
			}
			switch strings.TrimSpace(key) {
			case "title":
				doc.title = cleanTitle(val)
			case "description":
				doc.description = strings.TrimSpace(val)
			}
		}
		return strings.Join(lines[i+1:], "\n")
	}
	return src
}
