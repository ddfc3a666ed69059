package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig reads the dimensions of GIF uploads.
	_ "image/jpeg"
	_ "image/png"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/importer"
	"github.com/bindery/bindery/internal/validate"
)

// blobFile stores a file's bytes as an object and describes it.
func (r *Resolver) blobFile(ctx context.Context, name, contentType string, data []byte) (*content.File, error) {
	o := content.NewObject(enum.ObjectKindFile, data)
	if err := r.objects().Put(ctx, []content.Object{o}); err != nil {
		return nil, err
	}
	f := &content.File{ID: id.New(id.File), Name: name, ContentType: contentType, Size: int64(len(data)), Blob: o.Hash}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		f.Width, f.Height = cfg.Width, cfg.Height
	}
	return f, nil
}

// fileType is the media type of an upload: the one the client declared, or
// else one sniffed from the bytes.
func fileType(declared, name string, data []byte) string {
	if t, _, err := mime.ParseMediaType(declared); err == nil && t != "application/octet-stream" {
		return declared
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return http.DetectContentType(data)
}

func (r *Resolver) uploadFile(ctx context.Context, in model.UploadFileInput) (*ent.Revision, *model.RevisionFile, error) {
	name := in.File.Filename
	if in.Name != nil {
		name = *in.Name
	}
	name = strings.TrimSpace(name)
	if err := check("name", validate.FileName, name); err != nil {
		return nil, nil, err
	}
	max := r.cfg.MaxUploadBytes
	if in.File.Size > max {
		return nil, nil, apperr.Invalid("file", "is %d bytes; the limit is %d bytes", in.File.Size, max)
	}
	data, err := io.ReadAll(io.LimitReader(in.File.File, max+1))
	if err != nil {
		return nil, nil, apperr.Invalid("file", "could not be read: %v", err)
	}
	if int64(len(data)) > max {
		return nil, nil, apperr.Invalid("file", "is larger than the limit of %d bytes", max)
	}
	var f *content.File
	rev, _, err := r.edit(ctx, targetOf(in.SpaceID, in.ChangeRequestID, in.ExpectedRevisionID), "Upload "+name,
		func(ctx context.Context, _ *editTarget, c *content.Content) error {
			var err error
			f, err = r.blobFile(ctx, name, fileType(in.File.ContentType, name, data), data)
			if err == nil {
				c.PutFile(f)
			}
			return err
		})
	if err != nil {
		return nil, nil, err
	}
	return rev, r.fileModel(rev, f), nil
}

func (r *Resolver) deleteFile(ctx context.Context, in model.DeleteFileInput) (*ent.Revision, error) {
	rev, _, err := r.edit(ctx, targetOf(in.SpaceID, in.ChangeRequestID, in.ExpectedRevisionID), "Delete file "+in.FileID,
		func(_ context.Context, _ *editTarget, c *content.Content) error {
			if err := c.RemoveFile(in.FileID); err != nil {
				return apperr.NotFoundf("File not found")
			}
			return nil
		})
	return rev, err
}

// ImportResult is the outcome of an import.
type ImportResult struct {
	Revision *ent.Revision
	Imported int
	Total    int
}

// importContent fetches content from a URL and adds it, after the existing
// pages, in a new revision of the space or the change request. A space's
// main content takes an import in any editMode but LOCKED (see target). The
// fetch happens before the transaction, which is not held open on the
// network.
func (r *Resolver) importContent(ctx context.Context, in model.ImportContentInput) (*ImportResult, error) {
	t := targetOf(in.SpaceID, in.ChangeRequestID, nil)
	t.importing = true
	// Authorize first, so that nobody makes the server fetch on their behalf
	// without the right to edit.
	// A transaction of its own, for the content lock that target takes; the
	// edit reads the target again.
	if _, err := transact(ctx, r, func(ctx context.Context) (*editTarget, error) { return r.target(ctx, t) }); err != nil {
		return nil, err
	}
	res, err := importer.Import(ctx, in.Source, in.URL, importer.Options{AllowPrivate: r.cfg.ImportAllowPrivate, Now: r.clock})
	if err != nil {
		var ie *importer.Error
		if errors.As(err, &ie) {
			field := "url"
			if ie.Code == importer.CodeUnsupported || !in.Source.Valid() {
				field = "source"
			}
			return nil, apperr.Invalid(field, "%s", ie.Msg)
		}
		return nil, fmt.Errorf("importing %s: %w", in.URL, err)
	}
	out := &ImportResult{Imported: res.Imported, Total: res.Total}
	out.Revision, _, err = r.edit(ctx, t, "Import from "+in.URL,
		func(ctx context.Context, _ *editTarget, c *content.Content) error {
			for _, a := range res.Files {
				f, err := r.blobFile(ctx, a.File.Name, a.File.ContentType, a.Data)
				if err != nil {
					return err
				}
				f.ID = a.File.ID
				c.PutFile(f)
			}
			for _, n := range res.Pages {
				if err := c.Insert("", -1, n); err != nil {
					return contentError(err, "Page")
				}
			}
			return nil
		})
	return out, err
}
