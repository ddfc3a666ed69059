package gitbook

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif"  // dimensions of GIF files
	_ "image/jpeg" // dimensions of JPEG files
	_ "image/png"  // dimensions of PNG files
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/id"
)

// readAssets takes the files of .gitbook/assets. A file whose name prev has
// keeps its ID.
func (im *importer) readAssets(prev *content.Content) {
	prevIDs := map[string]string{}
	if prev != nil {
		for _, f := range prev.Files {
			if _, dup := prevIDs[f.Name]; !dup {
				prevIDs[f.Name] = f.ID
			}
		}
	}
	nested := 0
	for _, p := range sortedKeys(im.files) {
		data := im.files[p]
		name, ok := strings.CutPrefix(p, assetDir)
		if !ok {
			continue
		}
		if strings.Contains(name, "/") {
			nested++
			continue
		}
		f := content.File{ID: prevIDs[name], Name: name, ContentType: contentType(name, data), Size: int64(len(data))}
		if f.ID == "" {
			f.ID = im.newID(id.File)
		}
		// The same approach as package importer's addImage: the
		// registered decoders read an image's size from its header.
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
			f.Width, f.Height = cfg.Width, cfg.Height
		}
		im.res.Files = append(im.res.Files, Asset{File: f, Data: data})
	}
	if nested > 0 {
		im.warn(fmt.Sprintf("%d files are in folders under %s, which markdown cannot refer to, so they are not imported", nested, assetDir))
	}
}

// contentType is the type of a file by its name's extension, else by its
// bytes.
func contentType(name string, data []byte) string {
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		return ct
	}
	return http.DetectContentType(data)
}
