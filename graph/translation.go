package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
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
// content into. They have Bindery's shape (title and
// languages) and the official spec's Translation's (a source space and its
// language, one target language, instructions) together, so that a client
// written against either works: the contract's members are always there,
// the official ones once a client gave them. Where the two conflict the
// contract stands (the /v1 object is "translation-settings"). Bindery runs
// no machine translation: the status of a translation is pending and its
// stats are zero, said as they are.

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

// maxInstructions bounds a translation's instructions, as encoded.
const maxInstructions = 64 << 10

// checkInstructions checks that instructions are a JSONDocument as the
// official spec has it: an object whose object is "document", with a data
// object and an array of nodes. Empty or null means none.
func checkInstructions(j model.JSON) (json.RawMessage, error) {
	if len(j) == 0 || string(j) == "null" {
		return nil, nil
	}
	if len(j) > maxInstructions {
		return nil, apperr.Invalid("instructions", "must be at most %d bytes of JSON", maxInstructions)
	}
	var doc struct {
		Object *string           `json:"object"`
		Data   *map[string]any   `json:"data"`
		Nodes  *[]map[string]any `json:"nodes"`
	}
	if err := json.Unmarshal(j, &doc); err != nil || doc.Object == nil || *doc.Object != "document" || doc.Data == nil ||
		*doc.Data == nil || doc.Nodes == nil || *doc.Nodes == nil {
		return nil, apperr.Invalid("instructions", `must be a JSON document: {"object": "document", "data": {}, "nodes": [...]}`)
	}
	return json.RawMessage(j), nil
}

// translationSource checks a translation's source: a live space of the
// organization that the viewer sees, in a language the target is not.
func (r *Resolver) translationSource(ctx context.Context, orgID string, src *model.TranslationSourceInput,
	target *enum.Language) (*ent.Space, error) {
	if (src == nil) != (target == nil) {
		if src == nil {
			return nil, apperr.Invalid("source", "is required with language")
		}
		return nil, apperr.Invalid("language", "is required with source")
	}
	if src == nil {
		return nil, nil
	}
	if *target == src.Language {
		return nil, apperr.Invalid("language", "must differ from the source's language, %q", src.Language)
	}
	s, _, err := r.liveSpace(ctx, src.SpaceID, authz.View)
	switch k := apperr.KindOf(err); {
	case err == nil && s.OrganizationID != orgID, k == apperr.NotFound:
		return nil, apperr.Invalid("source.spaceId", "%q is not a space of the organization", src.SpaceID)
	case k == apperr.PreconditionFailed:
		return nil, apperr.Invalid("source.spaceId", "%q is deleted", src.SpaceID)
	case err != nil:
		return nil, err
	}
	return s, nil
}

// defaultTranslationTitle names a translation made in the official form,
// which has no title: its source space and its language, "Guide (fr)".
func defaultTranslationTitle(source *ent.Space, lang enum.Language) string {
	name := strings.TrimSpace(source.Title)
	if name == "" {
		name = "Translation"
	}
	return fmt.Sprintf("%s (%s)", name, lang)
}

// withLanguage makes languages hold the target language: given with it,
// they must; without them, a new target replaces the old one in the
// current list, or joins it. It returns nil when the list stays as it is.
func withLanguage(given, current []enum.Language, old, target *enum.Language) ([]enum.Language, error) {
	if target == nil {
		return given, nil
	}
	if given != nil {
		if !slices.Contains(given, *target) {
			if old != nil && *old == *target {
				return nil, apperr.Invalid("languages", "must hold the language, %q", *target)
			}
			return nil, apperr.Invalid("language", "%q must be one of languages", *target)
		}
		return given, nil
	}
	if slices.Contains(current, *target) {
		return nil, nil // unchanged
	}
	out := slices.Clone(current)
	if i := slices.IndexFunc(out, func(l enum.Language) bool { return old != nil && l == *old }); i >= 0 {
		out[i] = *target
	} else {
		out = append(out, *target)
	}
	return out, nil
}

func (r *Resolver) createTranslationSettings(ctx context.Context, in model.CreateTranslationSettingsInput) (*ent.TranslationSettings, error) {
	var langs []enum.Language
	if in.Languages != nil {
		var err error
		if langs, err = checkLanguages(in.Languages); err != nil {
			return nil, err
		}
	}
	instructions, err := checkInstructions(in.Instructions)
	if err != nil {
		return nil, err
	}
	if in.Title == nil && in.Source == nil {
		return nil, apperr.Invalid("title", "is required without a source")
	}
	return mutate(ctx, r, r.orgs, in.OrganizationID, authz.ManageSettings,
		func(ctx context.Context, o *ent.Organization, _ authz.Decision) (*ent.TranslationSettings, error) {
			source, err := r.translationSource(ctx, o.ID, in.Source, in.Language)
			if err != nil {
				return nil, err
			}
			langs, err := withLanguage(langs, []enum.Language{}, nil, in.Language)
			if err != nil {
				return nil, err
			}
			if langs == nil {
				langs = []enum.Language{}
			}
			c := r.db(ctx).TranslationSettings.Create().SetOrganizationID(o.ID).SetLanguages(langs).SetNillableLanguage(in.Language)
			if instructions != nil {
				c.SetInstructions(instructions)
			}
			if in.Title != nil {
				c.SetTitle(strings.TrimSpace(*in.Title))
			} else {
				c.SetTitle(defaultTranslationTitle(source, *in.Language))
			}
			if source != nil {
				c.SetSourceSpaceID(source.ID).SetSourceLanguage(in.Source.Language)
			}
			t, err := c.Save(ctx)
			if err != nil {
				return nil, err
			}
			r.translations.wrote(ctx, t)
			return t, nil
		})
}

func (r *Resolver) updateTranslationSettings(ctx context.Context, in model.UpdateTranslationSettingsInput) (*ent.TranslationSettings, error) {
	var langs []enum.Language
	if in.Languages != nil {
		var err error
		if langs, err = checkLanguages(in.Languages); err != nil {
			return nil, err
		}
	}
	var instructions json.RawMessage
	if j, set := in.Instructions.ValueOK(); set {
		var err error
		if instructions, err = checkInstructions(j); err != nil {
			return nil, err
		}
	}
	return mutate(ctx, r, r.translations, in.ID, authz.Update,
		func(ctx context.Context, t *ent.TranslationSettings, _ authz.Decision) (*ent.TranslationSettings, error) {
			u := t.Update()
			if in.Title != nil {
				u.SetTitle(strings.TrimSpace(*in.Title))
			}
			// The source and the target go together: what the input leaves
			// out, the settings have.
			src, target := in.Source, in.Language
			if src == nil && t.SourceSpaceID != nil && t.SourceLanguage != nil {
				src = &model.TranslationSourceInput{SpaceID: *t.SourceSpaceID, Language: *t.SourceLanguage}
			}
			if target == nil {
				target = t.Language
			}
			if in.Source != nil || in.Language != nil {
				source, err := r.translationSource(ctx, t.OrganizationID, src, target)
				if err != nil {
					return nil, err
				}
				u.SetSourceSpaceID(source.ID).SetSourceLanguage(src.Language).SetLanguage(*target)
			}
			langs, err := withLanguage(langs, t.Languages, t.Language, target)
			if err != nil {
				return nil, err
			}
			if langs != nil {
				u.SetLanguages(langs)
			}
			if _, set := in.Instructions.ValueOK(); set {
				if instructions == nil {
					u.ClearInstructions()
				} else {
					u.SetInstructions(instructions)
				}
			}
			return u.Save(ctx)
		})
}

func (r *Resolver) deleteTranslationSettings(ctx context.Context, in model.DeleteTranslationSettingsInput) error {
	return act(ctx, r, r.translations, in.ID, authz.Delete, func(ctx context.Context, t *ent.TranslationSettings, _ authz.Decision) error {
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

// translationSettingsSource is the official source of translation
// settings, when they have one.
func translationSettingsSource(t *ent.TranslationSettings) *model.TranslationSource {
	if t.SourceSpaceID == nil || t.SourceLanguage == nil {
		return nil
	}
	return &model.TranslationSource{SpaceID: *t.SourceSpaceID, Language: *t.SourceLanguage}
}

// translationRuns says whether translation settings are an official
// Translation, which has runs: a source and a target language.
func translationRuns(t *ent.TranslationSettings) bool {
	return translationSettingsSource(t) != nil && t.Language != nil
}

// emptyDocument is a JSONDocument without content.
const emptyDocument = `{"object":"document","data":{},"nodes":[]}`

// translationInstructions are the instructions of translation settings; a
// translation (with a source and a language) given none has an empty
// document, as the official Translation always has instructions.
func translationInstructions(t *ent.TranslationSettings) model.JSON {
	if len(t.Instructions) == 0 || string(t.Instructions) == "null" {
		if translationRuns(t) {
			return model.JSON(emptyDocument)
		}
		return nil
	}
	return model.JSON(t.Instructions)
}

// translationStatus is a translation's status: pending, as Bindery never
// runs one; nil for settings that are no translation yet.
func translationStatus(t *ent.TranslationSettings) *enum.TranslationStatus {
	if !translationRuns(t) {
		return nil
	}
	s := enum.TranslationStatusPending
	return &s
}

// translationStats are a translation's figures: zero, as Bindery never
// runs one; nil for settings that are no translation yet.
func translationStats(t *ent.TranslationSettings) *model.TranslationStats {
	if !translationRuns(t) {
		return nil
	}
	return &model.TranslationStats{}
}

func (r *Resolver) translationSettingsURLs(t *ent.TranslationSettings) *model.TranslationSettingsURLs {
	return &model.TranslationSettingsURLs{Location: r.cfg.PublicURL + "/v1/orgs/" + t.OrganizationID + "/translations/" + t.ID}
}
