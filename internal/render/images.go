package render

import "github.com/bindery/bindery/internal/document"

// figureImage is an image of an images block, resolved.
type figureImage struct {
	img     Image
	ok      bool
	alt     string
	caption *document.Node
}

// images writes an images block as one figure. An image that does not
// resolve is its alt text. With one image, its caption is the figure's;
// with several, each captioned image is a figure of its own within it, so
// every caption stays with its image.
func (r *renderer) images(nodes []*document.Node) {
	var imgs []figureImage
	for _, n := range nodes {
		if n == nil || n.Type != "image" {
			continue
		}
		ref, _ := refOf(n.Data["ref"])
		fi := figureImage{alt: str(n.Data, "alt"), caption: fragment(n, "caption")}
		fi.img, fi.ok = r.image(ref)
		if fi.caption != nil && isEmpty(inlineContent(fi.caption.Nodes)) {
			fi.caption = nil
		}
		if fi.ok || fi.alt != "" || fi.caption != nil {
			imgs = append(imgs, fi)
		}
	}
	if len(imgs) == 0 {
		return
	}
	r.b.WriteString("<figure class=\"images\">\n")
	for _, fi := range imgs {
		nested := len(imgs) > 1 && fi.caption != nil
		if nested {
			r.b.WriteString("<figure>\n")
		}
		if fi.ok {
			r.img(fi.img, fi.alt)
			r.b.WriteByte('\n')
		} else if fi.alt != "" {
			r.b.WriteString("<p>")
			r.text(fi.alt)
			r.b.WriteString("</p>\n")
		}
		if fi.caption != nil {
			r.b.WriteString("<figcaption>")
			r.inlines(inlineContent(fi.caption.Nodes))
			r.b.WriteString("</figcaption>\n")
		}
		if nested {
			r.b.WriteString("</figure>\n")
		}
	}
	r.b.WriteString("</figure>\n")
}
