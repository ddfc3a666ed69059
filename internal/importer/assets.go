package importer

import (
	"bytes"
	"context"
	"image"
	_ "image/gif"  // dimensions of GIF files
	_ "image/jpeg" // dimensions of JPEG files
	_ "image/png"  // dimensions of PNG files
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/id"
)

// assetPrefix is how markdown refers to a file of the space.
const assetPrefix = ".gitbook/assets/"

// imageTypes are the image types an import keeps, with the extension each
// file name gets. SVG is left out: it can carry scripts.
var imageTypes = map[string]string{
	"image/png":  ".png",
	"image/jpeg": ".jpg",
	"image/gif":  ".gif",
	"image/webp": ".webp",
	"image/avif": ".avif",
	"image/bmp":  ".bmp",
}

// imageExtensions maps a file extension to its image type, for archive
// entries, which have no declared type.
var imageExtensions = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".avif": "image/avif", ".bmp": "image/bmp",
}

// imageType is the type of an image's bytes: what they sniff as when that
// is an image, otherwise the declared type. It is "" for anything that is
// not a kept image type.
func imageType(declared string, data []byte) string {
	ct := declared
	if sniffed := http.DetectContentType(data); strings.HasPrefix(sniffed, "image/") {
		ct = sniffed
	} else if sniffed != "application/octet-stream" {
		return ""
	}
	if _, ok := imageTypes[ct]; !ok {
		return ""
	}
	return ct
}

// remoteImage fetches the image at u, once per import, and returns its
// file name, or "" when it could not be imported: a failed image is counted
// but never fails the import.
func (im *importer) remoteImage(ctx context.Context, u *url.URL) string {
	if !httpScheme(u) {
		return ""
	}
	u = withoutFragment(u)
	key := u.String()
	if name, seen := im.images[key]; seen {
		return name
	}
	im.images[key] = ""
	im.res.Total++
	if len(im.images) > maxImages {
		return ""
	}
	resp, err := im.fetch.get(ctx, u, func(mt string) bool {
		_, ok := imageTypes[mt]
		return ok || mt == "" || mt == "application/octet-stream"
	})
	if err != nil {
		return ""
	}
	name := im.addImage(path.Base(u.Path), resp.MediaType, resp.Body)
	im.images[key] = name
	return name
}

// archiveImage adds the archive entry at p as an image, once per import,
// and returns its file name, or "" when it is not an image within the
// limits.
func (im *importer) archiveImage(p string, open func() ([]byte, error)) string {
	key := "zip:" + p
	if name, seen := im.images[key]; seen {
		return name
	}
	im.images[key] = ""
	im.res.Total++
	declared, ok := imageExtensions[strings.ToLower(path.Ext(p))]
	if !ok || len(im.images) > maxImages {
		return ""
	}
	data, err := open()
	if err != nil {
		return ""
	}
	name := im.addImage(path.Base(p), declared, data)
	im.images[key] = name
	return name
}

// addImage records data as a file named after base, if it is a kept image
// type, and returns the file's name, unique within the import.
func (im *importer) addImage(base, declared string, data []byte) string {
	ct := imageType(declared, data)
	if ct == "" {
		return ""
	}
	name := im.uniqueName(base, imageTypes[ct])
	f := content.File{ID: id.New(id.File), Name: name, ContentType: ct, Size: int64(len(data))}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		f.Width, f.Height = cfg.Width, cfg.Height
	}
	im.res.Files = append(im.res.Files, Asset{File: f, Data: data})
	im.res.Imported++
	return name
}

// uniqueName makes a safe file name of base: letters, digits, dots, dashes
// and underscores, with an extension, and a numeric suffix when the name is
// taken.
func (im *importer) uniqueName(base, ext string) string {
	if s, err := url.PathUnescape(base); err == nil {
		base = s
	}
	var b strings.Builder
	dash := false
	for _, r := range base {
		switch {
		case r < 128 && (r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	name := strings.TrimLeft(b.String(), ".-_")
	stem, have := name, path.Ext(name)
	if have != "" {
		stem = strings.TrimSuffix(name, have)
	}
	if _, ok := imageExtensions[strings.ToLower(have)]; !ok || imageExtensions[strings.ToLower(have)] != imageExtensions[ext] {
		stem, have = name, ext
	}
	if len(stem) > 80 {
		stem = stem[:80]
	}
	stem = strings.TrimRight(stem, ".-_")
	if stem == "" {
		stem = "image"
	}
	name = stem + have
	for i := 2; im.names[name]; i++ {
		name = stem + "-" + strconv.Itoa(i) + have
	}
	im.names[name] = true
	return name
}

func withoutFragment(u *url.URL) *url.URL {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return &c
}
