package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// Translation settings follow the API contract (part 4.14 and 2.20: title
// and languages), not the official spec, whose operations of the same paths
// take and return a Translation (a source space, one language,
// instructions): the contract wins. The routes keep the spec's operationIds.

// translationSettingsList lists the translation settings of the path's
// organization.
func (p params) translationSettingsList(args page.Args) (*model.TranslationSettingsConnection, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().TranslationSettings(p.ctx(), o, args.First, args.After, nil, nil)
}

// translationSettings are the translation settings the path names, in the
// path's organization.
func (p params) translationSettings() (*ent.TranslationSettings, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().TranslationSetting(p.ctx(), o, p.path("translationId"))
}

func (p params) deleteTranslationSettings() (model.DeleteTranslationSettingsInput, error) {
	t, err := p.translationSettings()
	if err != nil {
		return model.DeleteTranslationSettingsInput{}, err
	}
	return model.DeleteTranslationSettingsInput{ID: t.ID}, nil
}

type createTranslationBody struct {
	Title     string           `json:"title" rest:"required"`
	Languages *[]enum.Language `json:"languages" rest:"nonnull"`
}

func (b *createTranslationBody) input(p params) (model.CreateTranslationSettingsInput, error) {
	in := model.CreateTranslationSettingsInput{OrganizationID: p.path("organizationId"), Title: b.Title}
	if b.Languages != nil {
		in.Languages = *b.Languages
	}
	return in, nil
}

// updateTranslationBody replaces the title, and the languages when given.
type updateTranslationBody struct {
	Title     string           `json:"title" rest:"required"`
	Languages *[]enum.Language `json:"languages" rest:"nonnull"`
}

func (b *updateTranslationBody) input(p params) (model.UpdateTranslationSettingsInput, error) {
	t, err := p.translationSettings()
	if err != nil {
		return model.UpdateTranslationSettingsInput{}, err
	}
	in := model.UpdateTranslationSettingsInput{ID: t.ID, Title: b.Title}
	if b.Languages != nil {
		in.Languages = *b.Languages
		if in.Languages == nil {
			in.Languages = []enum.Language{}
		}
	}
	return in, nil
}

type translationJSON struct {
	Object      string                         `json:"object"`
	ID          string                         `json:"id"`
	Title       string                         `json:"title"`
	Languages   []enum.Language                `json:"languages"`
	CreatedAt   string                         `json:"createdAt"`
	UpdatedAt   string                         `json:"updatedAt"`
	Permissions *authz.EditPermissions         `json:"permissions"`
	URLs        *model.TranslationSettingsURLs `json:"urls"`
}

func (j translationJSON) location() string { return j.URLs.Location }

func (a *API) presentTranslationSettings(ctx context.Context, t *ent.TranslationSettings) (translationJSON, error) {
	res := a.r.TranslationSettings()
	j := translationJSON{Object: "translation-settings", ID: t.ID, Title: t.Title, Languages: t.Languages,
		CreatedAt: model.FormatTime(t.CreatedAt), UpdatedAt: model.FormatTime(t.UpdatedAt)}
	if j.Languages == nil {
		j.Languages = []enum.Language{}
	}
	var err error
	if j.Permissions, err = res.Permissions(ctx, t); err != nil {
		return j, err
	}
	j.URLs, err = res.Urls(ctx, t)
	return j, err
}
