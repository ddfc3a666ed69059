// Package sitecustom holds a published site's customization: the official
// SiteCustomizationSettings. Bindery does not let sites be customized yet,
// so every site has the defaults of defaults.json (GitBook's defaults for a
// new site); a reader of a published site receives them as they are.
package sitecustom

import (
	_ "embed"
	"encoding/json"
)

//go:embed defaults.json
var defaultsJSON []byte

// Defaults returns the default customization, a fresh copy each time.
func Defaults() map[string]any {
	var m map[string]any
	if err := json.Unmarshal(defaultsJSON, &m); err != nil {
		panic("sitecustom: defaults.json: " + err.Error())
	}
	return m
}
