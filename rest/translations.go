package rest

import (
	"context"
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// Translation settings take and answer the API contract's shape (parts 4.14
// and 2.20: title and languages) and the official spec's Translation (a
// source space and its language, one target language, instructions)
// together, so that a client of either works: the contract's members are
// always answered, the official ones once given. Where the two conflict the
// contract stands: object is "translation-settings". The routes keep the
// spec's operationIds, and rest.ContractResponses states the answer.

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

// translationSourceBody is the official TranslationSource: a space and the
// language it is written in, both required.
type translationSourceBody struct {
	Space    *string        `json:"space"`
	Language *enum.Language `json:"language"`
}

func (b *translationSourceBody) input() (*model.TranslationSourceInput, error) {
	switch {
	case b == nil:
		return nil, nil
	case b.Space == nil:
		return nil, apperr.Invalid("source.space", "is required")
	case b.Language == nil:
		return nil, apperr.Invalid("source.language", "is required")
	}
	return &model.TranslationSourceInput{SpaceID: *b.Space, Language: *b.Language}, nil
}

// translationSourceMembers names the input's source fields as the body does.
var translationSourceMembers = map[string]string{"source.spaceId": "source.space"}

// createTranslationBody is either form or both: the contract requires a
// title, the official spec a source and a language; without a title, the
// settings are named after their source.
type createTranslationBody struct {
	Title        *string                `json:"title" rest:"nonnull"`
	Languages    *[]enum.Language       `json:"languages" rest:"nonnull"`
	Source       *translationSourceBody `json:"source" rest:"nonnull"`
	Language     *enum.Language         `json:"language" rest:"nonnull"`
	Instructions *json.RawMessage       `json:"instructions" rest:"nonnull"`
}

func (*createTranslationBody) inputMembers() map[string]string { return translationSourceMembers }

func (b *createTranslationBody) input(p params) (model.CreateTranslationSettingsInput, error) {
	src, err := b.Source.input()
	if err != nil {
		return model.CreateTranslationSettingsInput{}, err
	}
	in := model.CreateTranslationSettingsInput{OrganizationID: p.path("organizationId"), Title: b.Title, Source: src,
		Language: b.Language}
	if b.Languages != nil {
		in.Languages = *b.Languages
		if in.Languages == nil {
			in.Languages = []enum.Language{}
		}
	}
	if b.Instructions != nil {
		in.Instructions = model.JSON(*b.Instructions)
	}
	return in, nil
}

// updateTranslationBody changes what it holds: the contract's title (which
// the contract requires), the official instructions (which the spec
// requires), or both; languages, source and language besides.
type updateTranslationBody struct {
	Title        *string                `json:"title" rest:"nonnull"`
	Languages    *[]enum.Language       `json:"languages" rest:"nonnull"`
	Source       *translationSourceBody `json:"source" rest:"nonnull"`
	Language     *enum.Language         `json:"language" rest:"nonnull"`
	Instructions *json.RawMessage       `json:"instructions" rest:"nonnull"`
}

func (*updateTranslationBody) inputMembers() map[string]string { return translationSourceMembers }

func (b *updateTranslationBody) input(p params) (model.UpdateTranslationSettingsInput, error) {
	t, err := p.translationSettings()
	if err != nil {
		return model.UpdateTranslationSettingsInput{}, err
	}
	if b.Title == nil && b.Instructions == nil {
		return model.UpdateTranslationSettingsInput{}, apperr.Invalid("title", "is required without instructions")
	}
	src, err := b.Source.input()
	if err != nil {
		return model.UpdateTranslationSettingsInput{}, err
	}
	in := model.UpdateTranslationSettingsInput{ID: t.ID, Title: b.Title, Source: src, Language: b.Language}
	if b.Languages != nil {
		in.Languages = *b.Languages
		if in.Languages == nil {
			in.Languages = []enum.Language{}
		}
	}
	if b.Instructions != nil {
		in.Instructions = graphql.OmittableOf(model.JSON(*b.Instructions))
	}
	return in, nil
}

// translationSourceJSON is the official TranslationSource.
type translationSourceJSON struct {
	Space    string        `json:"space"`
	Language enum.Language `json:"language"`
}

// translationJSON is the contract's TranslationSettings, with the official
// Translation's members once the settings have them.
type translationJSON struct {
	Object       string                         `json:"object"`
	ID           string                         `json:"id"`
	Title        string                         `json:"title"`
	Languages    []enum.Language                `json:"languages"`
	Status       *enum.TranslationStatus        `json:"status,omitempty"`
	Source       *translationSourceJSON         `json:"source,omitempty"`
	Language     *enum.Language                 `json:"language,omitempty"`
	Instructions model.JSON                     `json:"instructions,omitempty"`
	Stats        *model.TranslationStats        `json:"stats,omitempty"`
	CreatedAt    string                         `json:"createdAt"`
	UpdatedAt    string                         `json:"updatedAt"`
	Permissions  *authz.EditPermissions         `json:"permissions"`
	URLs         *model.TranslationSettingsURLs `json:"urls"`
}

func (j translationJSON) location() string { return j.URLs.Location }

func (a *API) presentTranslationSettings(ctx context.Context, t *ent.TranslationSettings) (translationJSON, error) {
	res := a.r.TranslationSettings()
	j := translationJSON{Object: "translation-settings", ID: t.ID, Title: t.Title, Languages: t.Languages,
		CreatedAt: model.FormatTime(t.CreatedAt), UpdatedAt: model.FormatTime(t.UpdatedAt)}
	if j.Languages == nil {
		j.Languages = []enum.Language{}
	}
	src, err := res.Source(ctx, t)
	if err != nil {
		return j, err
	}
	if src != nil {
		j.Source = &translationSourceJSON{Space: src.SpaceID, Language: src.Language}
	}
	j.Language = t.Language
	if j.Instructions, err = res.Instructions(ctx, t); err != nil {
		return j, err
	}
	if j.Status, err = res.Status(ctx, t); err != nil {
		return j, err
	}
	if j.Stats, err = res.Stats(ctx, t); err != nil {
		return j, err
	}
	if j.Permissions, err = res.Permissions(ctx, t); err != nil {
		return j, err
	}
	j.URLs, err = res.Urls(ctx, t)
	return j, err
}
