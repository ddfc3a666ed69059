package graph

import (
	"context"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/translationsettings"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// Translation settings name the languages an organization translates its
// content into. Their shape is the API contract's (part 2.20: title and
// languages), not the official spec's Translation (a source space and one
// language, with runs and stats): where the two differ, the contract wins.

// translationsByCreation orders lists of translation settings, oldest first.
var translationsByCreation = page.Order[*ent.TranslationSettings, predicate.TranslationSettings, translationsettings.OrderOption]{
	Name: "translation-settings", Column: translationsettings.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(t *ent.TranslationSettings) any { return t.CreatedAt }, ID: func(t *ent.TranslationSettings) string { return t.ID },
}

// organizationTranslationSettings lists an organization's translation
// settings, for its members with a role.
func (r *Resolver) organizationTranslationSettings(ctx context.Context, o *ent.Organization, a page.Args) (*model.TranslationSettingsConnection, error) {
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.ReadSettings); err != nil {
		return nil, err
	}
	q := r.db(ctx).TranslationSettings.Query().Where(translationsettings.OrganizationID(o.ID))
	conn, err := page.Paginate(within(ctx), q, translationsByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.translations.loader(ctx)
	for _, t := range conn.Nodes() {
		l.Prime(ctx, t.ID, t)
	}
	return model.NewTranslationSettingsConnection(conn), nil
}

// checkLanguages refuses a list of languages with a repeat. Unknown codes
// never get here: both APIs decode them into enum.Language, which refuses
// them.
func checkLanguages(ls []enum.Language) ([]enum.Language, error) {
	seen := make(map[enum.Language]bool, len(ls))
	for _, l := range ls {
		if !l.Valid() {
			return nil, apperr.Invalid("languages", "%q is not a TranslationLanguage code", l)
		}
		if seen[l] {
			return nil, apperr.Invalid("languages", "%q is listed twice", l)
		}
		seen[l] = true
	}
	if ls == nil {
		ls = []enum.Language{}
	}
	return ls, nil
}

func (r *Resolver) createTranslationSettings(ctx context.Context, in model.CreateTranslationSettingsInput) (*ent.TranslationSettings, error) {
	langs, err := checkLanguages(in.Languages)
	if err != nil {
		return nil, err
	}
	var t *ent.TranslationSettings
	err = r.tx(ctx, func(ctx context.Context) error {
		o, _, err := r.orgs.authorize(ctx, in.OrganizationID, authz.ManageSettings)
		if err != nil {
			return err
		}
		t, err = r.db(ctx).TranslationSettings.Create().SetOrganizationID(o.ID).SetTitle(strings.TrimSpace(in.Title)).
			SetLanguages(langs).Save(ctx)
		return err
	})
	return t, err
}

func (r *Resolver) updateTranslationSettings(ctx context.Context, in model.UpdateTranslationSettingsInput) (*ent.TranslationSettings, error) {
	var langs []enum.Language
	if in.Languages != nil {
		var err error
		if langs, err = checkLanguages(in.Languages); err != nil {
			return nil, err
		}
	}
	var t *ent.TranslationSettings
	err := r.tx(ctx, func(ctx context.Context) error {
		var err error
		if t, _, err = r.translations.authorize(ctx, in.ID, authz.Update); err != nil {
			return err
		}
		u := t.Update().SetTitle(strings.TrimSpace(in.Title))
		if langs != nil {
			u.SetLanguages(langs)
		}
		t, err = u.Save(ctx)
		return err
	})
	return t, err
}

func (r *Resolver) deleteTranslationSettings(ctx context.Context, in model.DeleteTranslationSettingsInput) error {
	return r.tx(ctx, func(ctx context.Context) error {
		t, _, err := r.translations.authorize(ctx, in.ID, authz.Delete)
		if err != nil {
			return err
		}
		return r.db(ctx).TranslationSettings.DeleteOne(t).Exec(ctx)
	})
}

func (r *Resolver) translationSettingsPermissions(ctx context.Context, t *ent.TranslationSettings) (*authz.EditPermissions, error) {
	d, err := r.membersWithARole(ctx, t.OrganizationID)
	if err != nil {
		return nil, err
	}
	p := authz.ForEdit(authz.TranslationSettings, d)
	return &p, nil
}

func (r *Resolver) translationSettingsURLs(t *ent.TranslationSettings) *model.TranslationSettingsURLs {
	return &model.TranslationSettingsURLs{Location: r.cfg.PublicURL + "/v1/orgs/" + t.OrganizationID + "/translations/" + t.ID}
}
